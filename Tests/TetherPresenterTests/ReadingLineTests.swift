import Foundation
import Testing

@testable import TetherModel
@testable import TetherPresenter

/// Readings come only from notifications that begin with a tag (`!` and a letter), never
/// from log lines that happen to hold `name=value` text (docs/JSON.md, "Types").
@Suite struct ReadingLineTests {
    /// Lines of a Linux 6.1 boot under QEMU (x86-64 and ARM), as the console prints them.
    static let kernelBoot = [
        "Linux version 6.1.0-13-amd64 (debian-kernel@lists.debian.org) (gcc-12 (Debian 12.2.0-14) 12.2.0) #1 SMP PREEMPT_DYNAMIC Debian 6.1.55-1 (2023-09-29)",
        "Command line: console=ttyS0,115200 panic=-1",
        "Kernel command line: console=ttyS0,115200 root=/dev/vda1 rw panic=-1 init=/sbin/init",
        "SLUB: HWalign=64, Order=0-3, MinObjects=0, CPUs=2, Nodes=1",
        "rcu: Adjusting geometry for rcu_fanout_leaf=16, nr_cpu_ids=2",
        "rcu: RCU restricting CPUs from NR_CPUS=8192 to nr_cpu_ids=2.",
        "workingset: timestamp_bits=36 max_order=19 bucket_order=0",
        "audit: type=2000 audit(1701432000.120:1): state=initialized audit_enabled=0 res=1",
        "pcpu-alloc: s212992 r8192 d28672 u1048576 alloc=1*2097152",
        "Calibrating delay loop (skipped), value calculated using timer frequency.. 5990.40 BogoMIPS (lpj=11980800)",
        "LSM: initializing lsm=lockdown,capability,landlock,yama,apparmor,tomoyo",
        "serial8250: ttyS0 at I/O 0x3f8 (irq = 4, base_baud = 115200) is a 16550A",
        "e820: update [mem 0x00000000-0x00000fff] usable ==> reserved",
        "[    0.000000] Booting Linux on physical CPU 0x0000000000 [0x410fd083]",
        "[    1.234567] virtio_net virtio0 enp0s2: renamed from eth0 mtu=1500",
        "[12345.678901] audit: type=1400 audit(1701432000.5:42): apparmor=\"STATUS\" operation=\"profile_load\"",
        "Run /sbin/init as init process",
        "  with environment:",
        "    HOME=/",
        "    TERM=linux",
        "    BOOT_IMAGE=/boot/vmlinuz-6.1.0-13-amd64",
        "    quiet_level=3",
        "EXT4-fs (vda1): mounted filesystem with ordered data mode. Quota mode: none.",
        "random: crng init done",
    ]

    @Test func noKernelBootLineYieldsReadings() {
        var presenter = Presenter(port: "/dev/ttyUSB0")
        for line in Self.kernelBoot {
            let records = presenter.handle(
                DeviceEvent(time: Date(), kind: .session(.notification(Line(line)))))
            for case .notification(_, let readings) in records.map(\.event) {
                #expect(readings.isEmpty, "\(line)")
            }
        }
        #expect(presenter.state.readings.isEmpty)
        #expect(presenter.state.counts.notifications == Self.kernelBoot.count)
    }

    @Test(arguments: [
        ("!READING temp=22.87 hum=41.3", ["temp", "hum"]),
        ("!ALARM temp_high temp=31.02 limit=30.0", ["temp", "limit"]),
        ("!BURST n=3 seq=7", ["n", "seq"]),
    ])
    func taggedNotificationsYieldTheirFields(line: String, names: [String]) {
        let readings = Reading.fields(in: line, at: Date(), units: [:])
        #expect(readings.map(\.name) == names)
    }

    @Test(arguments: ["temp=22.87", "! temp=1", "!1 temp=1", "x !READING temp=1", "#READING temp=1"])
    func untaggedLinesYieldNone(line: String) {
        #expect(Reading.fields(in: line, at: Date(), units: [:]).isEmpty)
    }
}
