/// What a dialect is built from: every setting a user may give (`--eol`, `--prompt`…,
/// or the same keys in a device description file), each `nil`, empty or `false` when
/// not given.
///
/// A ``DialectKind`` says which of them its dialect takes and fills in its own defaults
/// for those not given (e.g. LF for `line`, `=> ` for `prompt`).
public struct DialectSettings: Sendable {
    /// The terminator written after each command (`--eol`).
    public var terminator: Terminator?
    /// Lines that are always notifications (`--notify-pattern`).
    public var notificationPattern: LinePattern?
    /// Replies that are errors (`--error-pattern`).
    public var errorPattern: LinePattern?
    /// Line prefixes that are unsolicited, as plain text (`--urc`), in order.
    public var unsolicitedPrefixes: [String]
    /// Vendor final result codes that end a reply successfully (`--final-ok`), in order.
    public var extraSuccessCodes: [String]
    /// Vendor final result codes that end a reply with an error (`--final-error`), in order.
    public var extraErrorCodes: [String]
    /// Whether to read the device's error queue after each command (`--check-errors`).
    public var checksErrors: Bool
    /// Whether the device sends nothing unsolicited, so replies need not settle
    /// (`--no-unsolicited`).
    public var sendsNothingUnsolicited: Bool
    /// The device speaks unasked: how long to listen before the first command
    /// (`--listen`); replies then settle from the first.
    public var listenPeriod: Duration?
    /// The console's prompt, exactly (`--prompt`).
    public var prompt: String?
    /// The console's prompt as a regular expression (`--prompt-regex`).
    public var promptPattern: LinePattern?
    /// After a timeout, how long the next command waits for the prompt (`--prompt-wait`).
    public var readinessWait: Duration?
    /// Whether the console does not echo what is typed (`--no-echo`).
    public var doesNotEcho: Bool
    /// Length-prefixed payload forms besides the dialect's own (`--payload-header`), in order.
    public var payloadHeaders: [PayloadHeaderTemplate]

    /// Creates settings; by default none is given.
    public init(
        terminator: Terminator? = nil, notificationPattern: LinePattern? = nil, errorPattern: LinePattern? = nil,
        unsolicitedPrefixes: [String] = [], extraSuccessCodes: [String] = [], extraErrorCodes: [String] = [],
        checksErrors: Bool = false, sendsNothingUnsolicited: Bool = false, listenPeriod: Duration? = nil,
        prompt: String? = nil,
        promptPattern: LinePattern? = nil, readinessWait: Duration? = nil, doesNotEcho: Bool = false,
        payloadHeaders: [PayloadHeaderTemplate] = []
    ) {
        self.terminator = terminator
        self.notificationPattern = notificationPattern
        self.errorPattern = errorPattern
        self.unsolicitedPrefixes = unsolicitedPrefixes
        self.extraSuccessCodes = extraSuccessCodes
        self.extraErrorCodes = extraErrorCodes
        self.checksErrors = checksErrors
        self.sendsNothingUnsolicited = sendsNothingUnsolicited
        self.listenPeriod = listenPeriod
        self.prompt = prompt
        self.promptPattern = promptPattern
        self.readinessWait = readinessWait
        self.doesNotEcho = doesNotEcho
        self.payloadHeaders = payloadHeaders
    }

    /// The settings given, in ``DialectSetting``'s order.
    public var given: [DialectSetting] {
        DialectSetting.allCases.filter { setting in
            switch setting {
            case .unsolicitedPrefixes: !unsolicitedPrefixes.isEmpty
            case .extraSuccessCodes: !extraSuccessCodes.isEmpty
            case .extraErrorCodes: !extraErrorCodes.isEmpty
            case .checksErrors: checksErrors
            case .sendsNothingUnsolicited: sendsNothingUnsolicited
            case .listenPeriod: listenPeriod != nil
            case .prompt: prompt != nil
            case .promptPattern: promptPattern != nil
            case .readinessWait: readinessWait != nil
            case .doesNotEcho: doesNotEcho
            case .errorPattern: errorPattern != nil
            case .terminator: terminator != nil
            case .notificationPattern: notificationPattern != nil
            case .payloadHeaders: !payloadHeaders.isEmpty
            }
        }
    }

    /// These settings, with `setting` taken from `defaults` when it is not given here.
    func filling(_ setting: DialectSetting, from defaults: DialectSettings) -> DialectSettings {
        guard !given.contains(setting) else { return self }
        var filled = self
        switch setting {
        case .unsolicitedPrefixes: filled.unsolicitedPrefixes = defaults.unsolicitedPrefixes
        case .extraSuccessCodes: filled.extraSuccessCodes = defaults.extraSuccessCodes
        case .extraErrorCodes: filled.extraErrorCodes = defaults.extraErrorCodes
        case .checksErrors: filled.checksErrors = defaults.checksErrors
        case .sendsNothingUnsolicited: filled.sendsNothingUnsolicited = defaults.sendsNothingUnsolicited
        case .listenPeriod: filled.listenPeriod = defaults.listenPeriod
        case .prompt: filled.prompt = defaults.prompt
        case .promptPattern: filled.promptPattern = defaults.promptPattern
        case .readinessWait: filled.readinessWait = defaults.readinessWait
        case .doesNotEcho: filled.doesNotEcho = defaults.doesNotEcho
        case .errorPattern: filled.errorPattern = defaults.errorPattern
        case .terminator: filled.terminator = defaults.terminator
        case .notificationPattern: filled.notificationPattern = defaults.notificationPattern
        case .payloadHeaders: filled.payloadHeaders = defaults.payloadHeaders
        }
        return filled
    }
}
