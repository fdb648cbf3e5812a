import PairsWire
import Testing

@Test("each accessor returns its kind of value and nil for every other kind")
func accessorsMatchOnlyTheirKind() {
    let values: [JSONValue] = [nil, true, 7, 7.0, "seven", [7], ["n": 7]]
    #expect(values.map(\.isNull) == [true, false, false, false, false, false, false])
    #expect(values.map(\.boolValue) == [nil, true, nil, nil, nil, nil, nil])
    #expect(values.map(\.integerValue) == [nil, nil, 7, nil, nil, nil, nil])
    #expect(values.map(\.numberValue) == [nil, nil, .integer(7), .double(7), nil, nil, nil])
    #expect(values.map(\.stringValue) == [nil, nil, nil, nil, "seven", nil, nil])
    #expect(values.map(\.arrayValue) == [nil, nil, nil, nil, nil, [7], nil])
    #expect(values.map(\.objectValue) == [nil, nil, nil, nil, nil, nil, ["n": 7]])
}

@Test("integers and doubles are different numbers even when numerically equal")
func integersAndDoublesDiffer() {
    #expect(JSONValue.number(.integer(1)) != JSONValue.number(.double(1)))
    #expect(JSONNumber.integer(1).doubleValue == 1.0)
    #expect(JSONNumber.double(2.5).doubleValue == 2.5)
}

@Test("objects look members up by key and compare members in order")
func objectLookupAndEquality() {
    let object: JSONObject = ["type": "flip", "card": 3]
    #expect(object["type"] == "flip")
    #expect(object["card"]?.integerValue == 3)
    #expect(object["missing"] == nil)
    #expect(JSONValue.object(object)["card"] == 3)
    #expect(JSONValue.string("not an object")["card"] == nil)

    let reordered: JSONObject = ["card": 3, "type": "flip"]
    #expect(object != reordered)
    #expect(object == JSONObject([(key: "type", value: "flip"), (key: "card", value: 3)]))
    #expect(Set([object, object, reordered]).count == 2)
}

@Test("setting an object member replaces it in place, appends a new one, and nil removes it")
func objectSubscriptSetter() {
    var object: JSONObject = ["a": 1, "b": 2]
    object["a"] = 10
    object["c"] = 3
    #expect(object.keys == ["a", "b", "c"])
    #expect(object["a"] == 10)
    object["b"] = nil
    object["missing"] = nil
    #expect(object == ["a": 10, "c": 3])
    #expect(object.count == 2)
    #expect(!object.isEmpty)
    #expect(JSONObject().isEmpty)
}
