extension LineFramer {
    /// One piece of the stream, as the framer hands it to its caller.
    ///
    /// Not `Sendable` and not to be stored: a line's bytes point into the chunk being appended or into the
    /// framer's buffer, and are valid only until the callback returns. Copying them is the caller's choice,
    /// so the common case (parse the line, then forget it) copies nothing.
    public enum Frame {
        /// A complete line without its `\n` or `\r\n`. May be empty.
        case line(UnsafeRawBufferPointer)
        /// A line longer than the limit. Its bytes were dropped, and the ones still to come up to its `\n`
        /// will be too. Reported once per such line, as soon as the line is known to be too long, which may
        /// be before its end has arrived.
        case tooLong
    }
}
