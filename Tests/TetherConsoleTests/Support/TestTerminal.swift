import Glibc

/// A pseudo-terminal standing in for the user's: the code under test uses the slave as
/// its terminal, the test types on the master and reads what was drawn there.
final class TestTerminal {
    /// The master: what the user types is written here, what is shown is read here.
    let keyboard: Int32
    /// The slave: the terminal the code under test is given.
    let terminal: Int32
    private var isKeyboardOpen = true

    struct Failure: Error {
        let step: String
        let errno: Int32
    }

    /// A new pty, its slave in raw mode (no line discipline between test and code)
    /// unless `raw` is `false`.
    init(raw: Bool = true) throws {
        keyboard = open("/dev/ptmx", O_RDWR | O_NOCTTY | O_CLOEXEC | O_NONBLOCK)
        guard keyboard >= 0 else { throw Failure(step: "open /dev/ptmx", errno: errno) }
        var locked: Int32 = 0
        // TIOCSPTLCK (_IOW('T', 0x31, int)) unlocks the slave; TIOCGPTPEER
        // (_IO('T', 0x41)) opens it without knowing its path.
        guard ioctl(keyboard, 0x4004_5431, &locked) == 0 else {
            throw Failure(step: "TIOCSPTLCK", errno: errno)
        }
        terminal = Int32(ioctl(keyboard, 0x5441, O_RDWR | O_NOCTTY | O_CLOEXEC))
        guard terminal >= 0 else { throw Failure(step: "TIOCGPTPEER", errno: errno) }
        if raw {
            var settings = termios()
            tcgetattr(terminal, &settings)
            cfmakeraw(&settings)
            tcsetattr(terminal, TCSANOW, &settings)
        }
    }

    deinit {
        hangUp()
        close(terminal)
    }

    /// Types `text` (one write, as a fast typist or a paste).
    func type(_ text: String) { type(Array(text.utf8)) }

    func type(_ bytes: [UInt8]) {
        _ = bytes.withUnsafeBytes { write(keyboard, $0.baseAddress, $0.count) }
    }

    /// What was drawn since the last call, once `condition` holds for it or 10 s passed.
    func shown(until condition: (String) -> Bool) -> String {
        var drawn: [UInt8] = []
        let end = ContinuousClock.now + .seconds(10)
        while !condition(String(decoding: drawn, as: UTF8.self)), ContinuousClock.now < end {
            var chunk = [UInt8](repeating: 0, count: 4096)
            let count = chunk.withUnsafeMutableBytes { read(keyboard, $0.baseAddress, $0.count) }
            if count > 0 { drawn += chunk[..<count] } else { usleep(10_000) }
        }
        return String(decoding: drawn, as: UTF8.self)
    }

    /// Closes the master: the terminal hangs up.
    func hangUp() {
        if isKeyboardOpen { close(keyboard) }
        isKeyboardOpen = false
    }

    /// The terminal's settings now.
    var settings: termios {
        var settings = termios()
        tcgetattr(terminal, &settings)
        return settings
    }
}

extension termios {
    /// The same flags and control characters (termios has no `==`).
    func isSame(as other: termios) -> Bool {
        var a = self
        var b = other
        return memcmp(&a, &b, MemoryLayout<termios>.size) == 0
    }
}
