import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Runs a program in a pseudo-terminal, as a person at a terminal would: its standard
/// input, output and error are the terminal (so `isatty` is true and it may ask), the
/// test reads the screen and types answers when a prompt appears.
public final class PseudoTerminal {
    private let master: Int32
    private let process: Process
    /// Everything the program wrote (and the terminal echoed), carriage returns removed.
    public private(set) var screen = ""

    public init(executable: String, _ arguments: [String], environment: [String: String], currentDirectory: String? = nil) throws {
        // posix_openpt and friends are not in Swift's Glibc module; what they do on Linux:
        // open the multiplexer, unlock the new terminal, ask its number.
        master = open("/dev/ptmx", O_RDWR | O_NOCTTY)
        var unlock: Int32 = 0, number: UInt32 = 0
        guard master >= 0, ioctl(master, 0x4004_5431 /* TIOCSPTLCK */, &unlock) == 0,
              ioctl(master, 0x8004_5430 /* TIOCGPTN */, &number) == 0 else {
            throw TestSetupError("no pseudo-terminal: \(String(cString: strerror(errno)))")
        }
        let slave = open("/dev/pts/\(number)", O_RDWR | O_NOCTTY)
        guard slave >= 0 else { throw TestSetupError("cannot open the pseudo-terminal's other end") }
        // A wide screen: the program must not wrap lines for the test.
        var size = winsize(ws_row: 50, ws_col: 250, ws_xpixel: 0, ws_ypixel: 0)
        _ = ioctl(slave, UInt(TIOCSWINSZ), &size)
        let handle = FileHandle(fileDescriptor: slave, closeOnDealloc: true)
        process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = environment
        if let currentDirectory { process.currentDirectoryURL = URL(fileURLWithPath: currentDirectory) }
        process.standardInput = handle
        process.standardOutput = handle
        process.standardError = handle
        try process.run()
        try? handle.close()
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        close(master)
    }

    /// Reads what the program writes until `text` is on the screen (true) or `timeout`
    /// seconds pass or the program ends (false).
    @discardableResult
    public func waitFor(_ text: String, timeout: Double = 120) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while !screen.contains(text) {
            if Date() > deadline || !readSome(until: deadline) { return screen.contains(text) }
        }
        return true
    }

    /// Types `text` (add "\n" for Enter).
    public func type(_ text: String) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { write(master, $0.baseAddress, $0.count) }
    }

    /// Reads until the program ends; its exit status.
    public func finish(timeout: Double = 120) -> Int32 {
        let deadline = Date().addingTimeInterval(timeout)
        while readSome(until: deadline) {}
        while process.isRunning && Date() < deadline { usleep(20_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        return process.terminationStatus
    }

    /// One read when output is there within the deadline; false at the end of output.
    private func readSome(until deadline: Date) -> Bool {
        var fds = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
        while Date() < deadline {
            let ready = poll(&fds, 1, 100)
            if ready < 0 && errno != EINTR { return false }
            if ready > 0 {
                var buffer = [UInt8](repeating: 0, count: 65_536)
                let n = read(master, &buffer, buffer.count)
                // EIO: every holder of the other end has closed it (the program ended).
                if n <= 0 { return false }
                screen += String(decoding: buffer[0..<n], as: UTF8.self).replacingOccurrences(of: "\r", with: "")
                return true
            }
            if !process.isRunning {
                // Ended: whatever is left comes at once or not at all.
                let last = poll(&fds, 1, 50)
                if last <= 0 { return false }
            }
        }
        return false
    }

    /// The screen without colour and other escape sequences.
    public var plainScreen: String {
        screen.replacingOccurrences(of: "\u{1B}\\[[0-9;]*[A-Za-z]", with: "", options: .regularExpression)
    }
}
