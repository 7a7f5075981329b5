import Foundation

/// A parsed JSON value, compared structurally (member order and whitespace do not matter; `1` and `1.0` do).
enum JSON: Equatable, Sendable, Decodable, CustomStringConvertible {
    case null
    case bool(Bool)
    case integer(Int)
    case number(Double)
    case string(String)
    case array([JSON])
    case object([String: JSON])

    struct Invalid: Error, CustomStringConvertible {
        var description: String
    }

    /// Parses `bytes`, or throws with the text in the message.
    init(parsing bytes: [UInt8]) throws {
        do {
            self = try JSONDecoder().decode(JSON.self, from: Data(bytes))
        } catch {
            throw Invalid(description: "not JSON (\(error)): \(String(decoding: bytes.prefix(500), as: UTF8.self))")
        }
    }

    init(parsing text: String) throws { try self.init(parsing: Array(text.utf8)) }

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let flag = try? container.decode(Bool.self) {
            self = .bool(flag)
        } else if let integer = try? container.decode(Int.self) {
            self = .integer(integer)
        } else if let number = try? container.decode(Double.self) {
            self = .number(number)
        } else if let string = try? container.decode(String.self) {
            self = .string(string)
        } else if let array = try? container.decode([JSON].self) {
            self = .array(array)
        } else {
            self = .object(try container.decode([String: JSON].self))
        }
    }

    subscript(member: String) -> JSON? {
        if case .object(let members) = self { return members[member] }
        return nil
    }

    subscript(index: Int) -> JSON? {
        if case .array(let elements) = self, elements.indices.contains(index) { return elements[index] }
        return nil
    }

    /// The object without `member` (any other value unchanged).
    func removing(_ member: String) -> JSON {
        guard case .object(var members) = self else { return self }
        members[member] = nil
        return .object(members)
    }

    var string: String? { if case .string(let value) = self { value } else { nil } }
    var int: Int? { if case .integer(let value) = self { value } else { nil } }
    var array: [JSON]? { if case .array(let value) = self { value } else { nil } }
    var keys: Set<String> { if case .object(let members) = self { Set(members.keys) } else { [] } }

    var description: String {
        switch self {
        case .null: "null"
        case .bool(let value): "\(value)"
        case .integer(let value): "\(value)"
        case .number(let value): "\(value)"
        case .string(let value): "\"\(value)\""
        case .array(let values): "[" + values.map(\.description).joined(separator: ",") + "]"
        case .object(let members):
            "{" + members.sorted { $0.key < $1.key }.map { "\"\($0.key)\":\($0.value)" }.joined(separator: ",") + "}"
        }
    }
}
