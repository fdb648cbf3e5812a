import PairsWire
import Testing

@Test("the wire speaks protocol version 1")
func protocolVersionIsOne() {
    #expect(WireProtocol.version == 1)
}
