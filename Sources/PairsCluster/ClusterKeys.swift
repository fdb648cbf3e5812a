#if Cluster
/// The key names, in one place. Names and tokens are appended as their UTF-8 bytes.
struct ClusterKeys {
    let instancePrefix: String
    let waiterPrefix: String
    private let roomPrefix: String
    private let tokenPrefix: String
    private let queuePrefix: String
    let sequence: String

    init(namespace: String) {
        instancePrefix = namespace + ":instance:"
        waiterPrefix = namespace + ":waiter:"
        roomPrefix = namespace + ":room:"
        tokenPrefix = namespace + ":token:"
        queuePrefix = namespace + ":quick:"
        sequence = namespace + ":quick-sequence"
    }

    func instance(_ id: String) -> [UInt8] { Array((instancePrefix + id).utf8) }
    func room(_ name: String) -> [UInt8] { Array((roomPrefix + name).utf8) }
    func token(_ token: String) -> [UInt8] { Array((tokenPrefix + token).utf8) }
    func queue(_ rules: String) -> [UInt8] { Array((queuePrefix + rules).utf8) }
    func waiter(_ id: String) -> [UInt8] { Array((waiterPrefix + id).utf8) }
}
#endif
