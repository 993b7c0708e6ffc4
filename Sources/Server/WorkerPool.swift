import DequeModule
import Foundation
import NIOPosix
import Synchronization

/// A fixed set of threads that run jobs strictly in the order they came, for the work
/// of a request that takes milliseconds of CPU (planning).
///
/// Why not run it in the handler: the handler runs on Swift's cooperative pool, which
/// also carries every connection's reading and writing, and blocking it for the length
/// of a search makes the order in which waiting requests are served depend on the
/// executor's queues. Measured on 2 cores at 16 connections (bydgoszcz): with plans run
/// in the handler, 4.8 ms median time in the handler but 53 ms median and 340 ms p99 at
/// the client; first come, first served here keeps a request's wait to the work queued
/// before it.
final class WorkerPool: Sendable {
    /// Jobs waiting; the threads live as long as the process (one pool per server).
    private let jobs = Mutex(Deque<@Sendable () -> Void>())
    private let ready = DispatchSemaphore(value: 0)

    init(threads: Int, name: String) {
        for i in 0..<max(1, threads) {
            let thread = Thread { [self] in self.work() }
            thread.name = "\(name)-\(i)"
            thread.start()
        }
    }

    private func work() {
        while true {
            ready.wait()
            if let job = jobs.withLock({ $0.popFirst() }) { job() }
        }
    }

    /// Runs `body` on a worker once the jobs before it have started; its result or error.
    ///
    /// Called on one of NIO's event loops (as every request is when `transit serve` has made
    /// them Swift's global executor), the result is handed back on that loop: the request's
    /// task resumes on the thread of its connection and writes the answer there, one thread
    /// switch back instead of one to any loop and another to the connection's.
    func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        let home = MultiThreadedEventLoopGroup.currentEventLoop
        return try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, Error>) in
            jobs.withLock {
                $0.append {
                    let result = Result { try body() }
                    if let home { home.execute { continuation.resume(with: result) } } else { continuation.resume(with: result) }
                }
            }
            ready.signal()
        }
    }
}
