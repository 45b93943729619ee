import Foundation
import Glibc
import Testing
import TetherSerial

/// A reconnect reopens a link to a pty only when the link was made again
/// (docs/HARDWARE.md, "The device goes away and comes back").
@Suite struct PseudoTerminalLinkWatchTests {
    /// A folder for links, removed by the caller.
    static func folder() throws -> String {
        var template = Array((NSTemporaryDirectory() + "tether-link-watch-XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else { throw TestFailure("mkdtemp: \(errno)") }
        return String(cString: made)
    }

    @Test func theSameLinkToAPtyIsNotReopenedButAMadeAgainOneIs() throws {
        let pty = try PseudoTerminal()
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let link = folder + "/device"
        #expect(symlink(pty.slavePath, link) == 0)
        let watch = PseudoTerminalLinkWatch()
        var opens = 0
        let open = { () throws(SerialError) -> Int in
            opens += 1
            return opens
        }
        #expect(try watch.open(link, open) == 1)
        #expect(throws: SerialError.notFound(path: link)) { try watch.open(link, open) }
        // The program behind the pty makes its link again: a new file.
        #expect(unlink(link) == 0)
        #expect(symlink(pty.slavePath, link) == 0)
        #expect(try watch.open(link, open) == 2)
    }

    @Test func devicesAndOtherLinksAreReopenedAsOftenAsAsked() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let link = folder + "/null"
        #expect(symlink("/dev/null", link) == 0)
        #expect(PseudoTerminalLinkWatch.ptyLink(at: link) == nil)
        let pty = try PseudoTerminal()
        #expect(PseudoTerminalLinkWatch.ptyLink(at: pty.slavePath) == nil)  // the node itself, no link
        let watch = PseudoTerminalLinkWatch()
        for path in [link, link, pty.slavePath, pty.slavePath] {
            #expect(try watch.open(path) { () throws(SerialError) in path } == path)
        }
    }
}
