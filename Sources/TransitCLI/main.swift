import ArgumentParser
import NIOCore
import NIOPosix

// `transit serve`: Swift's tasks run on NIO's event loops rather than on a pool of their
// own, so a request is read, handled and answered on its connection's thread; with two
// pools every request crossed from one to the other and back (measured on 2 cores at 16
// connections: p99 40 → 36 ms, requests/s +10%, medians of 5 alternating runs). This has
// to happen before any task runs, hence a main.swift and not `@main`.
if CommandLine.arguments.dropFirst().first == "serve" {
    NIOSingletons.unsafeTryInstallSingletonPosixEventLoopGroupAsConcurrencyGlobalExecutor()
}
await Transit.start()

extension Transit {
    /// Called from a function, not from the top level: there, `main()` resolved to the
    /// synchronous one, which prints the help of async commands instead of running them.
    static func start() async { await main() }
}
