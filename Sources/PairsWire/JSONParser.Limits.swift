extension JSONParser {
    /// How much structure the parser accepts before giving up, so hostile input costs bounded work and stack.
    public struct Limits: Sendable, Hashable {
        /// The most nesting the parser can be configured for, in levels of arrays and objects.
        ///
        /// The parser recurses once per level (a few hundred bytes of stack each), so this ceiling keeps even
        /// a misconfigured limit far from exhausting a thread's stack.
        public static let maxSupportedDepth = 512

        /// The deepest nesting accepted, in levels of arrays and objects; `[[1]]` is 2 levels, a scalar 0.
        public var maxDepth: Int

        /// Limits allowing up to `maxDepth` levels of nesting, at most `maxSupportedDepth`.
        public init(maxDepth: Int) {
            precondition(
                (0...Self.maxSupportedDepth).contains(maxDepth),
                "maxDepth must be between 0 and \(Self.maxSupportedDepth)")
            self.maxDepth = maxDepth
        }

        /// The limits for protocol messages: 32 levels.
        ///
        /// Messages nest 3 levels at most (message, state, board); 32 leaves ample room for future
        /// messages while a line of 4,096 `[` is rejected after 32 of them instead of recursing 4,096 times.
        public static let `default` = Limits(maxDepth: 32)
    }
}
