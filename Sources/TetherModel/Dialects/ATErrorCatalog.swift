/// The meanings of the numeric AT error result codes: `+CME ERROR: <n>` (mobile
/// equipment errors, 3GPP TS 27.007 § 9.2) and `+CMS ERROR: <n>` (message service
/// errors, 3GPP TS 27.005 § 3.2.5).
///
/// Only codes the standards define are listed; vendor codes (e.g. 500–999 for
/// `+CME`) have no entry. A device in verbose error mode (`AT+CMEE=2`) sends the
/// text itself (`+CME ERROR: SIM not inserted`), which needs no lookup.
internal enum ATErrorCatalog {
    /// `+CME ERROR` codes → meaning (TS 27.007).
    internal static let mobileEquipment: [Int: String] = [
        0: "phone failure", 1: "no connection to phone", 2: "phone-adaptor link reserved",
        3: "operation not allowed", 4: "operation not supported", 5: "PH-SIM PIN required",
        6: "PH-FSIM PIN required", 7: "PH-FSIM PUK required", 10: "SIM not inserted",
        11: "SIM PIN required", 12: "SIM PUK required", 13: "SIM failure", 14: "SIM busy",
        15: "SIM wrong", 16: "incorrect password", 17: "SIM PIN2 required", 18: "SIM PUK2 required",
        20: "memory full", 21: "invalid index", 22: "not found", 23: "memory failure",
        24: "text string too long", 25: "invalid characters in text string",
        26: "dial string too long", 27: "invalid characters in dial string",
        30: "no network service", 31: "network timeout",
        32: "network not allowed - emergency calls only", 40: "network personalization PIN required",
        41: "network personalization PUK required", 42: "network subset personalization PIN required",
        43: "network subset personalization PUK required", 44: "service provider personalization PIN required",
        45: "service provider personalization PUK required", 46: "corporate personalization PIN required",
        47: "corporate personalization PUK required", 100: "unknown",
    ]

    /// `+CMS ERROR` codes → meaning (TS 27.005).
    internal static let messageService: [Int: String] = [
        300: "ME failure", 301: "SMS service of ME reserved", 302: "operation not allowed",
        303: "operation not supported", 304: "invalid PDU mode parameter", 305: "invalid text mode parameter",
        310: "SIM not inserted", 311: "SIM PIN required", 312: "PH-SIM PIN required", 313: "SIM failure",
        314: "SIM busy", 315: "SIM wrong", 316: "SIM PUK required", 317: "SIM PIN2 required",
        318: "SIM PUK2 required", 320: "memory failure", 321: "invalid memory index", 322: "memory full",
        330: "SMSC address unknown", 331: "no network service", 332: "network timeout",
        340: "no +CNMA acknowledgement expected", 500: "unknown error",
    ]

    /// The meaning of a final result code such as `+CME ERROR: 10`, or `nil` when it
    /// is not a numeric `+CME`/`+CMS` error or the code is not in the tables.
    internal static func description(of finalResult: String) -> String? {
        for (prefix, table) in [("+CME ERROR:", mobileEquipment), ("+CMS ERROR:", messageService)]
        where finalResult.hasPrefix(prefix) {
            let code = finalResult.dropFirst(prefix.count).trimmingWhitespace()
            return Int(code).flatMap { table[$0] }
        }
        return nil
    }
}
