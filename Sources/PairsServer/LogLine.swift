import PairsLobby
import PairsStorage
import PairsWire

/// One line of the operator's log, in either format, with its newline.
///
/// Text: `TIME LEVEL EVENT key=value ...`, values bare when unambiguous, else quoted as JSON strings.
/// JSON: `{"time":...,"level":...,"event":...,` then every field under its key, numbers as numbers.
/// Either way client text is escaped (`LogQuoting`), so the line is one line and controls no terminal.
enum LogLine {
    static func format(
        _ format: LogFormat, time: WallClockTime, level: LogLevel, event: String, fields: [LogField]
    ) -> [UInt8] {
        switch format {
        case .text: text(time: time, level: level, event: event, fields: fields)
        case .json: json(time: time, level: level, event: event, fields: fields)
        }
    }

    private static func text(time: WallClockTime, level: LogLevel, event: String, fields: [LogField]) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(160)
        bytes += time.iso8601.utf8
        bytes.append(ASCII.space)
        bytes += level.name.utf8
        bytes.append(ASCII.space)
        bytes += event.utf8
        for field in fields {
            bytes.append(ASCII.space)
            bytes += field.key.utf8
            bytes.append(UInt8(ascii: "="))
            switch field.value {
            case .text(let value):
                if LogQuoting.isBare(value) { bytes += value.utf8 } else { LogQuoting.appendQuoted(value, to: &bytes) }
            case .integer(let value):
                bytes += String(value).utf8
            case .decimal(let value):
                bytes += value.description.utf8
            case .boolean(let value):
                bytes += (value ? "true" : "false").utf8
            }
        }
        bytes.append(ASCII.newline)
        return bytes
    }

    private static func json(time: WallClockTime, level: LogLevel, event: String, fields: [LogField]) -> [UInt8] {
        var writer = JSONWriter(capacity: 200)
        writer.beginObject()
        writer.key("time"); writer.string(time.iso8601)
        writer.key("level"); writer.string(level.name)
        writer.key("event"); writer.string(event)
        for field in fields {
            writer.key(field.key)
            switch field.value {
            case .text(let value):
                var quoted: [UInt8] = []
                LogQuoting.appendQuoted(value, to: &quoted)
                writer.raw(quoted)
            case .integer(let value):
                writer.integer(value)
            case .decimal(let value):
                writer.double(value)
            case .boolean(let value):
                writer.bool(value)
            }
        }
        writer.endObject()
        writer.newline()
        return writer.bytes
    }
}
