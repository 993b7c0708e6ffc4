import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// This process's resident memory in bytes (Linux: /proc/self/statm), 0 when unknown.
public func residentBytes() -> Int {
    guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
    let parts = text.split(separator: " ")
    guard parts.count > 1, let pages = Int(parts[1]) else { return 0 }
    return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
}
