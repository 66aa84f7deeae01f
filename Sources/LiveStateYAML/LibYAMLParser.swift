internal import CYAML
import Foundation
import LiveState
import LiveStateTooling

/// One libyaml event, copied out of C memory, with its start position converted.
struct YAMLEvent {
    /// The kinds of event the reader handles.
    enum Kind: Equatable {
        case streamStart
        case streamEnd
        case documentStart
        case documentEnd
        case alias
        case scalar
        case sequenceStart
        case sequenceEnd
        case mappingStart
        case mappingEnd
    }

    /// The event's kind.
    var kind: Kind
    /// Where the event starts.
    var position: SourcePosition
    /// The anchor a node event defines, or the anchor an alias names.
    var anchor: String?
    /// The tag of a node event, resolved to its full form (`tag:yaml.org,2002:str`).
    var tag: String?
    /// The text of a scalar.
    var scalar: YAMLScalar?
}

/// A failure to read YAML: a syntax error from libyaml or a broken limit.
struct YAMLReadError: Error {
    /// `yaml-syntax` or `yaml-limit`.
    var code: DiagnosticCode
    /// What went wrong.
    var message: String
    /// Where it went wrong.
    var position: SourcePosition
}

/// libyaml's event parser over a UTF-8 buffer.
///
/// The `yaml_parser_t` lives in memory this object owns and is deleted in `deinit`. The input
/// buffer is not copied: the caller keeps it alive for the parser's lifetime
/// (`YAMLTreeReader.read(yaml:)` creates and drops the parser inside `withUnsafeBytes`).
///
/// libyaml's marks are 0-based and count *characters*: `index` from the start of the
/// input, `column` from the start of the line. `SourcePosition` counts UTF-8 bytes and is
/// 1-based. `position(of:)` is the one place that converts, by walking the input from the
/// last converted mark (events arrive in document order, so the walk is linear overall).
///
/// A UTF-8 byte order mark is skipped before libyaml sees the text (libyaml, told the text is
/// UTF-8, would count it as a character of the first line); positions still count its bytes.
final class LibYAMLParser {
    private let parser: UnsafeMutablePointer<yaml_parser_t>
    private let input: UnsafeRawBufferPointer
    /// 3 when the input starts with a byte order mark, else 0: where libyaml's text starts.
    private let textStart: Int
    private var finished = false

    // The conversion cursor: a character index, its byte offset, its line and line start.
    private var cursorCharacter = 0
    private var cursorOffset: Int
    private var cursorLine = 1
    private var cursorLineStart = 0

    /// Creates a parser over `input`, read as UTF-8 whatever its first bytes say.
    /// - Parameter input: The YAML text; must stay valid while the parser is used.
    /// - Throws: `YAMLReadError` when libyaml cannot allocate its state.
    init(input: UnsafeRawBufferPointer) throws(YAMLReadError) {
        self.input = input
        textStart = input.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        cursorOffset = textStart
        cursorLineStart = textStart
        parser = .allocate(capacity: 1)
        guard yaml_parser_initialize(parser) == 1 else {
            parser.deallocate()
            throw YAMLReadError(code: .yamlSyntax, message: "libyaml could not allocate a parser",
                                position: SourcePosition(offset: 0, line: 1, column: 1))
        }
        yaml_parser_set_encoding(parser, YAML_UTF8_ENCODING)
        if let base = input.baseAddress, input.count > textStart {
            yaml_parser_set_input_string(parser, (base + textStart).assumingMemoryBound(to: UInt8.self), input.count - textStart)
        } else {
            // libyaml needs a non-null pointer even for no bytes; a static string's storage lives forever.
            let empty: StaticString = ""
            yaml_parser_set_input_string(parser, empty.utf8Start, 0)
        }
    }

    deinit {
        yaml_parser_delete(parser)
        parser.deallocate()
    }

    /// Pulls the next event.
    /// - Returns: The event; after `streamEnd`, `streamEnd` again.
    /// - Throws: `YAMLReadError` with code `yaml-syntax` and libyaml's message and position.
    func next() throws(YAMLReadError) -> YAMLEvent {
        if finished {
            return YAMLEvent(kind: .streamEnd, position: position(ofByte: input.count))
        }
        var event = yaml_event_t()
        guard yaml_parser_parse(parser, &event) == 1 else {
            throw syntaxError()
        }
        defer { yaml_event_delete(&event) }
        let position = position(of: event.start_mark)
        switch event.type {
        case YAML_STREAM_START_EVENT:
            return YAMLEvent(kind: .streamStart, position: position)
        case YAML_STREAM_END_EVENT:
            finished = true
            return YAMLEvent(kind: .streamEnd, position: position)
        case YAML_DOCUMENT_START_EVENT:
            if let version = event.data.document_start.version_directive?.pointee, version.major == 1, version.minor < 2 {
                throw YAMLReadError(
                    code: .yamlSyntax,
                    message: "the document declares %YAML 1.\(version.minor), and LiveState reads YAML 1.2, whose scalars differ: "
                        + "yes, off and 010 are the strings 'yes' and 'off' and the integer 10, not true, false and 8. "
                        + "Remove the directive and write such values as YAML 1.2 reads them",
                    position: position)
            }
            return YAMLEvent(kind: .documentStart, position: position)
        case YAML_DOCUMENT_END_EVENT:
            return YAMLEvent(kind: .documentEnd, position: position)
        case YAML_ALIAS_EVENT:
            return YAMLEvent(kind: .alias, position: position, anchor: Self.string(event.data.alias.anchor))
        case YAML_SCALAR_EVENT:
            let data = event.data.scalar
            let text = data.value.map {
                String(decoding: UnsafeBufferPointer(start: $0, count: data.length), as: UTF8.self)
            } ?? ""
            return YAMLEvent(
                kind: .scalar, position: position,
                anchor: Self.string(data.anchor), tag: Self.string(data.tag),
                scalar: YAMLScalar(text: text, isPlain: data.style == YAML_PLAIN_SCALAR_STYLE))
        case YAML_SEQUENCE_START_EVENT:
            let data = event.data.sequence_start
            return YAMLEvent(kind: .sequenceStart, position: position, anchor: Self.string(data.anchor), tag: Self.string(data.tag))
        case YAML_SEQUENCE_END_EVENT:
            return YAMLEvent(kind: .sequenceEnd, position: position)
        case YAML_MAPPING_START_EVENT:
            let data = event.data.mapping_start
            return YAMLEvent(kind: .mappingStart, position: position, anchor: Self.string(data.anchor), tag: Self.string(data.tag))
        case YAML_MAPPING_END_EVENT:
            return YAMLEvent(kind: .mappingEnd, position: position)
        default:
            throw YAMLReadError(code: .yamlSyntax, message: "libyaml produced an unexpected event", position: position)
        }
    }

    /// The position of the first character after the input, for messages about the end.
    var endPosition: SourcePosition { position(ofByte: input.count) }

    private func syntaxError() -> YAMLReadError {
        let state = parser.pointee
        var message = state.problem.map { String(cString: $0) } ?? "invalid YAML"
        let position: SourcePosition
        if state.error == YAML_READER_ERROR {
            // Reader errors carry a byte offset and the offending byte or code point.
            var offset = textStart + state.problem_offset
            if message == "invalid trailing UTF-8 octet" {
                // libyaml points at the byte that breaks the sequence; point at its lead byte.
                var lead = min(offset, input.count) - 1
                while lead > 0, input[lead] & 0xC0 == 0x80 {
                    lead -= 1
                }
                if lead >= 0, input[lead] >= 0xC0 {
                    message = "invalid UTF-8: 0x\(Self.hex(input[lead])) starts a sequence that 0x\(Self.hex(state.problem_value)) does not continue"
                    offset = lead
                }
            } else if state.problem_value != -1 {
                message += " (0x\(Self.hex(state.problem_value)))"
            }
            position = self.position(ofByte: offset)
        } else {
            if let context = state.context.map({ String(cString: $0) }) {
                let contextPosition = self.position(of: state.context_mark)
                message += " \(context) started at \(contextPosition)"
            }
            position = self.position(of: state.problem_mark)
            // libyaml reads a key of more than 1,024 characters as no key (YAML's limit for an
            // implicit key), and then names the colon after it.
            if state.problem_mark.column > 1024, message.hasPrefix("mapping values are not allowed") || message.hasPrefix("could not find expected ':'") {
                message += "; a key longer than 1,024 characters is not read as a key (YAML's limit for an implicit key): shorten it, "
                    + "or write it as an explicit key, '? key' on its own line and ': value' on the next"
            }
            // libyaml's words for a tab where indentation goes name no tab.
            if message.hasPrefix("found character that cannot start any token"), position.offset < input.count, input[position.offset] == 0x09 {
                message += "; it is a tab, and YAML indents with spaces only"
            }
        }
        if state.error == YAML_MEMORY_ERROR {
            message = "libyaml ran out of memory"
        }
        return YAMLReadError(code: .yamlSyntax, message: message, position: position)
    }

    /// Converts a libyaml mark (0-based, in characters) to a `SourcePosition` (UTF-8 bytes, 1-based).
    private func position(of mark: yaml_mark_t) -> SourcePosition {
        moveCursor(toCharacter: Int(mark.index), orByte: input.count)
        return SourcePosition(offset: cursorOffset, line: cursorLine, column: cursorOffset - cursorLineStart + 1)
    }

    /// The position of a byte offset, for reader errors, which libyaml reports in bytes.
    private func position(ofByte offset: Int) -> SourcePosition {
        let offset = min(max(offset, 0), input.count)
        moveCursor(toCharacter: .max, orByte: offset)
        return SourcePosition(offset: offset, line: cursorLine, column: max(offset - cursorLineStart, 0) + 1)
    }

    /// Moves the conversion cursor to the character `character`, or to the last character
    /// that starts at or before `byte`, counting lines as libyaml does: a line ends at LF, CR,
    /// CRLF (one break), NEL, LS or PS, so that a file saved with CR line ends is placed line by
    /// line, as an editor shows it. Line 1 starts after a byte order mark, which no editor
    /// shows as a column.
    private func moveCursor(toCharacter character: Int, orByte byte: Int) {
        if character < cursorCharacter || byte < cursorOffset {
            cursorCharacter = 0
            cursorOffset = textStart
            cursorLine = 1
            cursorLineStart = textStart
        }
        while cursorCharacter < character, cursorOffset < input.count {
            // A character's bytes: a lead byte and the continuation bytes after it. An ASCII
            // byte is one character whatever follows it (a stray continuation byte is libyaml's
            // reader error, placed at that byte).
            var length = 1
            while input[cursorOffset] >= 0xC0, cursorOffset + length < input.count, input[cursorOffset + length] & 0xC0 == 0x80 {
                length += 1
            }
            guard cursorOffset + length <= byte else { return }
            let breaksLine = switch input[cursorOffset] {
            case 0x0A: true
            // CR, unless an LF follows: a CRLF breaks the line once, at its LF.
            case 0x0D: cursorOffset + 1 == input.count || input[cursorOffset + 1] != 0x0A
            case 0xC2: length == 2 && input[cursorOffset + 1] == 0x85
            case 0xE2: length == 3 && input[cursorOffset + 1] == 0x80 && (input[cursorOffset + 2] == 0xA8 || input[cursorOffset + 2] == 0xA9)
            default: false
            }
            cursorOffset += length
            cursorCharacter += 1
            if breaksLine {
                cursorLine += 1
                cursorLineStart = cursorOffset
            }
        }
    }

    private static func hex(_ value: some BinaryInteger) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return digits.count < 2 ? "0" + digits : digits
    }

    private static func string(_ pointer: UnsafeMutablePointer<yaml_char_t>?) -> String? {
        guard let pointer else { return nil }
        return String(cString: pointer)
    }
}

extension YAMLTreeReader {
    /// Reads the one document of the YAML text `yaml` with a parser made over it for the read.
    /// - Returns: The document's root node, `nil` for a text with no document, or why it
    ///   cannot be read.
    func read(yaml: some ContiguousBytes) -> Result<YAMLNode?, YAMLReadError> {
        yaml.withUnsafeBytes { buffer in
            do throws(YAMLReadError) {
                return .success(try read(try LibYAMLParser(input: buffer)))
            } catch {
                return .failure(error)
            }
        }
    }
}
