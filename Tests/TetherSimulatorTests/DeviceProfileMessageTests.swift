import Foundation
import Testing

@testable import TetherSimulator

/// Every kind of profile mistake, with the whole message it gives: `<field>: <what is
/// wrong and what was expected>` after the file name. These pin the wording as
/// `DeviceProfileLoadingTests` pins the fields, so a change in how profiles are read
/// cannot change what a user is told.
@Suite struct DeviceProfileMessageTests {
    /// (document, the message after `bad.json: `)
    static let messages: [(String, String)] = [
        (
            #"[1]"#,
            #"expected an object, found an array"#
        ),
        (
            #"{"dialect": "line", "commands": [], "name": 3}"#,
            #"name: expected a string, found a number"#
        ),
        (
            #"{"dialect": "line", "commands": [], "input": "crlf"}"#,
            #"input: expected one of any, cr, lf"#
        ),
        (
            #"{"dialect": "line", "commands": [], "separator": ""}"#,
            #"separator: expected a non-empty separator, e.g. ";""#
        ),
        (
            #"{"dialect": "line", "commands": [], "notificationPattern": "("}"#,
            #"notificationPattern: '(' does not compile; expected a regular expression (Swift Regex syntax)"#
        ),
        (
            #"{"dialect": "line"}"#,
            #"commands: missing; expected an array of commands"#
        ),
        (
            #"{"dialect": "line", "commands": {}}"#,
            #"commands: expected an array, found an object"#
        ),
        (
            #"{"dialect": "line", "commands": [], "properties": [{"name": "v", "type": "int", "initial": 1}, {"name": "v", "type": "int", "initial": 2}]}"#,
            #"properties[1]: the name 'v' is used twice; choose another"#
        ),
        (
            #"{"dialect": "line", "commands": [], "properties": [{"name": "echo", "type": "bool", "initial": true}], "echo": {}}"#,
            #"echo: with 'echo', the bool property 'echo' is made for you; remove yours"#
        ),
        (
            #"{"dialect": "line", "commands": [], "echo": {"initial": 1}}"#,
            #"echo.initial: expected true or false, found a number"#
        ),
        (
            #"{"dialect": "line", "commands": [], "echo": {"start": "x"}}"#,
            #"echo.start: unknown field 'start'; expected one of: initial, end"#
        ),
        (
            #"{"dialect": "line", "commands": [], "properties": [{"name": "s", "type": "string", "initial": ""}, {"name": "t", "type": "number", "initial": 1, "drift": {"toward": "s", "timeConstant": 1}}]}"#,
            #"properties[1].drift.toward: 's' is not a number property; expected a number or a number property's name"#
        ),
        (
            #"{"dialect": "line", "commands": [], "finalReply": "{nope}"}"#,
            #"finalReply: unknown property 'nope' in '{nope}'; expected one of: identity, serial, line, errorCount"#
        ),
        (
            #"{"dialect": "line", "commands": [], "notifications": [{"name": "a", "every": 10, "send": "x"}, {"name": "a", "every": 10, "send": "y"}]}"#,
            #"notifications[1]: the name 'a' is used twice"#
        ),
        (
            #"{"dialect": "line", "commands": [], "properties": [{"type": "int", "initial": 1}]}"#,
            #"properties[0].name: missing; expected a name made of letters, digits and '_'"#
        ),
        (
            #"{"dialect": "line", "commands": [], "properties": [{"name": "2x", "type": "int", "initial": 1}]}"#,
            #"properties[0].name: '2x' is not a name; expected letters, digits and '_', not starting with a digit"#
        ),
        (
            #"{"dialect": "line", "commands": [], "properties": [{"name": "v", "initial": 1}]}"#,
            #"properties[0].type: missing; expected one of number, int, bool, string, enum"#
        ),
        (
            #"{"dialect": "line", "commands": [], "properties": [{"name": "v", "type": "int", "unit": 5, "initial": 1}]}"#,
            #"properties[0].unit: expected a string, found a number"#
        ),
        (
            #"{"dialect": "line", "commands": [], "properties": [{"name": "v", "type": "bool", "min": 0, "initial": true}]}"#,
            #"properties[0].min: 'min' applies only to number and int properties (this one is bool)"#
        ),
        (
            #"{"dialect": "line", "commands": [], "properties": [{"name": "v", "type": "int", "min": 0.5, "initial": 1}]}"#,
            #"properties[0].min: expected a whole number, found a number"#
        ),
        (
            #"{"dialect": "line", "commands": [], "properties": [{"name": "v", "type": "number", "allowed": [1, "x"], "initial": 1}]}"#,
            #"properties[0].allowed[1]: expected a number, found a string"#
        ),
        (
            #"{"dialect": "line", "commands": [], "properties": [{"name": "v", "type": "enum", "initial": "A"}]}"#,
            #"properties[0].values: missing; expected the enum's values, e.g. ["OFF", "ON"]"#
        ),
        (
            #"{"dialect": "line", "commands": [], "properties": [{"name": "v", "type": "enum", "values": [], "initial": "A"}]}"#,
            #"properties[0].values: expected at least one value"#
        ),
        (
            #"{"dialect": "line", "commands": [], "properties": [{"name": "v", "type": "enum", "values": ["A", 2], "initial": "A"}]}"#,
            #"properties[0].values[1]: expected a string, found a number"#
        ),
        (
            #"{"dialect": "line", "commands": [], "properties": [{"name": "v", "type": "enum", "values": 2, "initial": "A"}]}"#,
            #"properties[0].values: expected a string or an array of strings, found a number"#
        ),
        (
            #"{"dialect": "line", "commands": [], "properties": [{"name": "v", "type": "string", "values": ["A"], "initial": "A"}]}"#,
            #"properties[0].values: 'values' applies only to enum properties (this one is string)"#
        ),
        (
            #"{"dialect": "line", "commands": [], "properties": [{"name": "v", "type": "int", "text": ["a", "b"], "initial": 1}]}"#,
            #"properties[0].text: 'text' applies only to bool properties (this one is int)"#
        ),
        (
            #"{"dialect": "line", "commands": [], "properties": [{"name": "v", "type": "bool", "text": ["a"], "initial": true}]}"#,
            #"properties[0].text: expected two strings: the text for false, then for true"#
        ),
        (
            #"{"dialect": "line", "commands": [], "properties": [{"name": "v", "type": "number", "format": "%s", "initial": 1}]}"#,
            #"properties[0].format: '%s' is not a number format; expected e.g. %.2f, %d, %.3E"#
        ),
        (
            #"{"dialect": "line", "commands": [], "properties": [{"name": "v", "type": "int", "drift": {"rate": 1}, "initial": 1}]}"#,
            #"properties[0].drift: 'drift' applies only to number properties"#
        ),
        (
            #"{"dialect": "line", "commands": [], "properties": [{"name": "v", "type": "int", "noise": 1, "initial": 1}]}"#,
            #"properties[0].noise: 'noise' applies only to number properties"#
        ),
        (
            #"{"dialect": "line", "commands": [], "properties": [{"name": "v", "type": "number"}]}"#,
            #"properties[0].initial: missing; expected the power-on value"#
        ),
        (
            #"{"dialect": "line", "commands": [], "properties": [{"name": "v", "type": "number", "initial": "1"}]}"#,
            #"properties[0].initial: expected a number, found a string"#
        ),
        (
            #"{"dialect": "line", "commands": [], "properties": [{"name": "v", "type": "bool", "initial": 1}]}"#,
            #"properties[0].initial: expected true or false, found a number"#
        ),
        (
            #"{"dialect": "line", "commands": [], "properties": [{"name": "v", "type": "string", "initial": 1}]}"#,
            #"properties[0].initial: expected a string, found a number"#
        ),
        (
            #"{"dialect": "line", "commands": [], "properties": [{"name": "v", "type": "enum", "values": ["A"], "initial": "B"}]}"#,
            #"properties[0].initial: 'B' is not one of the values ["A"]"#
        ),
        (
            #"{"dialect": "line", "commands": [], "properties": [{"name": "v", "type": "number", "format": "%d", "initial": 1e30}]}"#,
            #"properties[0].initial: the initial value 1e+30 cannot be shown with '%d'; expected a whole number within ±9.2e18"#
        ),
        (
            #"{"dialect": "line", "commands": [], "properties": [{"name": "v", "type": "number", "initial": 1, "drift": {"speed": 1}}]}"#,
            #"properties[0].drift.speed: unknown field 'speed'; expected one of: toward, timeConstant, rate, wander"#
        ),
        (
            #"{"dialect": "line", "commands": [], "properties": [{"name": "v", "type": "number", "initial": 1, "drift": {"toward": true, "timeConstant": 1}}]}"#,
            #"properties[0].drift.toward: expected a number or a property name, found a boolean"#
        ),
        (
            #"{"dialect": "line", "commands": [], "properties": [{"name": "v", "type": "number", "initial": 1, "drift": {"toward": 3}}]}"#,
            #"properties[0].drift: 'toward' needs 'timeConstant', a positive number of seconds"#
        ),
        (
            #"{"dialect": "line", "commands": [], "properties": [{"name": "v", "type": "number", "initial": 1, "drift": {}}]}"#,
            #"properties[0].drift: expected at least one of 'toward' (with 'timeConstant'), 'rate', 'wander'"#
        ),
        (
            #"{"dialect": "line", "commands": [], "properties": [{"name": "v", "type": "number", "initial": 1, "drift": 3}]}"#,
            #"properties[0].drift: expected an object, found a number"#
        ),
        (
            #"{"dialect": "line", "commands": [{"match": "A", "regex": "A"}]}"#,
            #"commands[0]: give either 'match' or 'regex', not both"#
        ),
        (
            #"{"dialect": "line", "commands": [{"match": "A", "set": 3}]}"#,
            #"commands[0].set: expected an object: property name → value template, found a number"#
        ),
        (
            #"{"dialect": "line", "commands": [{"match": "A", "ignoreCase": "yes"}]}"#,
            #"commands[0].ignoreCase: expected true or false, found a string"#
        ),
        (
            #"{"dialect": "line", "commands": [{"match": "A", "error": {"code": 1, "message": "m"}, "reply": "x"}]}"#,
            #"commands[0].error: a row with 'error' cannot also 'set', 'reply' or have an 'action'"#
        ),
        (
            #"{"dialect": "line", "commands": [{"match": "A", "action": "popError", "reply": "x"}], "errors": {"queue": {}}}"#,
            #"commands[0].reply: the reply of 'popError' is the error entry; remove 'reply'"#
        ),
        (
            #"{"dialect": "line", "commands": [{"match": "A", "error": {"message": "m"}}]}"#,
            #"commands[0].error.code: missing; expected a whole number"#
        ),
        (
            #"{"dialect": "line", "commands": [{"match": "A", "error": {"code": 1}}]}"#,
            #"commands[0].error.message: missing; expected the error's text"#
        ),
        (
            #"{"dialect": "line", "commands": [], "errors": {"queue": {"size": 0}}}"#,
            #"errors.queue.size: expected a queue size of 1 or more"#
        ),
        (
            #"{"dialect": "line", "commands": [], "errors": {"style": "x"}}"#,
            #"errors.style: unknown field 'style'; expected one of: reply, queue, unknownCommand, invalidValue, outOfRange, lineTooLong"#
        ),
        (
            #"{"dialect": "line", "commands": [], "errors": {"reply": "E {line} {nope}"}}"#,
            #"errors.reply: unknown property 'nope' in 'E {line} {nope}'; expected one of: identity, serial, line, errorCount, code, message"#
        ),
        (
            #"{"dialect": "line", "commands": [], "errors": 3}"#,
            #"errors: expected an object, found a number"#
        ),
        (
            #"{"dialect": "line", "commands": [], "notifications": [{"every": 0, "send": "x"}]}"#,
            #"notifications[0].every: expected a positive number of ms"#
        ),
        (
            #"{"dialect": "line", "commands": [], "notifications": [{"every": 10, "firstAfter": -1, "send": "x"}]}"#,
            #"notifications[0].firstAfter: expected 0 or more ms"#
        ),
        (
            #"{"dialect": "line", "commands": [], "notifications": [{"send": "x"}]}"#,
            #"notifications[0]: give either 'every' (a schedule) or 'after' (another notification's name)"#
        ),
        (
            #"{"dialect": "line", "commands": [], "notifications": [{"every": 10, "when": {"atLeast": 1}, "send": "x"}]}"#,
            #"notifications[0].when.property: missing; expected the property to watch"#
        ),
        (
            #"{"dialect": "line", "commands": [], "properties": [{"name": "s", "type": "string", "initial": ""}], "notifications": [{"every": 10, "when": {"property": "s", "atLeast": 1}, "send": "x"}]}"#,
            #"notifications[0].when.property: 's' is not a number or int property"#
        ),
        (
            #"{"dialect": "line", "commands": [], "properties": [{"name": "t", "type": "int", "initial": 1}], "notifications": [{"every": 10, "when": {"property": "t", "atLeast": 1, "atMost": 2}, "send": "x"}]}"#,
            #"notifications[0].when: expected exactly one of 'atLeast', 'atMost'"#
        ),
        (
            #"{"dialect": "line", "commands": [], "properties": [{"name": "t", "type": "int", "initial": 1}, {"name": "s", "type": "string", "initial": ""}], "notifications": [{"every": 10, "when": {"property": "t", "atLeast": "s"}, "send": "x"}]}"#,
            #"notifications[0].when.atLeast: 's' is not a number or int property"#
        ),
        (
            #"{"dialect": "line", "commands": [], "properties": [{"name": "t", "type": "int", "initial": 1}], "notifications": [{"every": 10, "when": {"property": "t", "atLeast": true}, "send": "x"}]}"#,
            #"notifications[0].when.atLeast: expected a number or a property name, found a boolean"#
        ),
        (
            #"{"dialect": "line", "commands": [], "properties": [{"name": "t", "type": "number", "initial": 1}], "notifications": [{"every": 10, "increment": "t", "send": "x"}]}"#,
            #"notifications[0].increment: 't' is not an int property; expected the int property to count with"#
        ),
        (
            #"{"dialect": "line", "commands": [], "notifications": [{"every": 10}]}"#,
            #"notifications[0].send: missing; expected the line or lines to send"#
        ),
        (
            #"{"dialect": "line", "commands": [], "notifications": [{"every": 10, "send": 3}]}"#,
            #"notifications[0].send: expected an array, found a number"#
        ),
        (
            #"{"dialect": "line", "commands": [], "notifications": [{"every": 1.5, "send": "x"}]}"#,
            #"notifications[0].every: expected a whole number, found a number"#
        ),
        (
            #"{"dialect": "line", "commands": [{"match": "A", "reply": {"cases": {}}}]}"#,
            #"commands[0].reply.by: missing; expected the name of the property that chooses the reply"#
        ),
        (
            #"{"dialect": "line", "commands": [{"match": "A", "reply": {"by": "zz", "cases": {}}}]}"#,
            #"commands[0].reply.by: unknown property 'zz'; expected one of: "#
        ),
        (
            #"{"dialect": "line", "properties": [{"name": "n", "type": "int", "initial": 1}], "commands": [{"match": "A", "reply": {"by": "n"}}]}"#,
            #"commands[0].reply.cases: missing; expected an object: the property's value as shown → reply"#
        ),
        (
            #"{"dialect": "line", "properties": [{"name": "n", "type": "int", "initial": 1}], "commands": [{"match": "A", "reply": {"by": "n", "cases": []}}]}"#,
            #"commands[0].reply.cases: expected an object, found an array"#
        ),
        (
            #"{"dialect": "line", "properties": [{"name": "n", "type": "int", "initial": 1}], "commands": [{"match": "A", "reply": {"by": "n", "cases": {"1": "x"}}}]}"#,
            #"commands[0].reply: expected a 'default' reply: the cases cannot cover every value of 'n'"#
        ),
        (
            #"{"dialect": "line", "properties": [{"name": "n", "type": "int", "initial": 1}], "commands": [{"match": "A", "reply": {"by": "n", "cases": {"1": 5}, "default": "d"}}]}"#,
            #"commands[0].reply.cases.1: expected an array, found a number"#
        ),
        (
            #"{"dialect": "line", "commands": [{"match": "A", "reply": 3}]}"#,
            #"commands[0].reply: expected a string, an array of strings, or {"by", "cases"}, found a number"#
        ),
        (
            #"{"dialect": "line", "commands": [{"match": "A", "reply": "a } b"}]}"#,
            #"commands[0].reply: a lone '}' in 'a } b'; write '}}' for a brace"#
        ),
        (
            #"{"dialect": "line", "commands": [{"match": "A", "reply": "a { b"}]}"#,
            #"commands[0].reply: '{' without '}' in 'a { b'; write '{{' for a brace"#
        ),
        (
            #"{"dialect": "line", "properties": [{"name": "s", "type": "string", "initial": ""}], "commands": [{"match": "A", "reply": "{s:%d}"}]}"#,
            #"commands[0].reply: '{s:%d}' in '{s:%d}': a format applies only to number and int properties"#
        ),
        (
            #"{"dialect": "line", "commands": [{"match": "A", "reply": "{code}"}]}"#,
            #"commands[0].reply: unknown property 'code' in '{code}'; expected one of: identity, serial, line, errorCount"#
        ),
    ]

    @Test(arguments: messages)
    func theMessageIsExact(document: String, message: String) {
        let error = #expect(throws: ProfileError.self) {
            try DeviceProfile(data: Array(document.utf8), file: "bad.json", defaultName: "bad")
        }
        #expect(error?.description == "bad.json: " + message)
    }
}
