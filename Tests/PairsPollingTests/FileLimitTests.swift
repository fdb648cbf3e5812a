import PairsPolling
import Testing
#if canImport(Glibc)
import Glibc
#endif

@Test("raising the descriptor limit takes the soft limit to the hard one and says what is now in force")
func raisesToTheHardLimit() {
    let raised = FileLimit.raise()
    var limit = rlimit()
    #expect(getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0)
    #expect(limit.rlim_cur == limit.rlim_max)
    #expect(raised == (limit.rlim_cur > rlim_t(Int.max) ? Int.max : Int(limit.rlim_cur)))
}
