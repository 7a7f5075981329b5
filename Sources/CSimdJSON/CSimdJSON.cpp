// simdjson On-Demand walks over JSON texts: a cursor its caller steers (the caller knows the schema; this file
// knows JSON), probed objects, and the lockstep comparison of two objects.
//
// simdjson finds the structure (stage 1, SIMD, runtime-dispatched) and unescapes strings; this file walks the
// tokens once, in document order, writing flat arrays. Every value is visited (a value the cursor's caller moves
// past unread is validated then), so syntax errors anywhere are found before schema violations are reported.
#include "CSimdJSON.h"

#include <simdjson.h>

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "NumberToken.hpp"

using namespace simdjson;
using csimdjson::NumberToken;

namespace {

/// Thrown to unwind the walk on the first fatal error (syntax, depth); the status is already recorded.
struct Abort {};

/// A string or integer scalar as the walk reads it (CSimdJSON_CursorReadScalar, a probed member), before it is
/// packed.
struct WalkedScalar {
    int64_t integer;
    uint64_t offset;
    uint32_t length;
    uint8_t kind;
    uint8_t inInput;  // a string written without escapes: its bytes are the input's at offset

    /// The scalar as CSimdJSON_Scalar.packed holds it: the integer, or the string's place (offset in the low 32
    /// bits, length in the high 32; both below 4 GiB, as the input and the unescaped strings are).
    uint64_t packed() const {
        return kind == CSimdJSON_ScalarInteger ? uint64_t(integer) : (offset | uint64_t(length) << 32);
    }
};

/// One step of the current JSON path: a member name or an array index.
struct PathStep {
    const char *key;  // nullptr for an index
    size_t keyLength;
    uint64_t index;
};

/// A member name met while validating an object, for the duplicate check (16 bytes a name: a large object's
/// names are sorted in place, not copied; inputs are under 4 GiB).
struct SeenKey {
    const char *data;  // unescaped: in the input, or in simdjson's string buffer (valid for the whole parse)
    uint32_t length : 31;
    uint32_t repeat : 1;  // an earlier member has the name (marked while a large object's names are sorted)
    uint32_t offset;      // the member name in the input

    std::string_view name() const { return std::string_view(data, length); }
    /// One of 64 buckets, from the name's length and its first and last bytes: names in different buckets
    /// differ.
    unsigned bucket() const {
        uint32_t x = length == 0 ? 0 : uint32_t(length) | uint32_t(uint8_t(data[0])) << 8 | uint32_t(uint8_t(data[length - 1])) << 16;
        return (x * 0x9E3779B1u) >> 26;
    }
    bool sameName(const SeenKey &other) const {
        if (length != other.length) { return false; }
        for (size_t i = 0; i < length; ++i) {  // names are short and mostly differ early: no memcmp call
            if (data[i] != other.data[i]) { return false; }
        }
        return true;
    }
};

/// Small helpers of the walk, called for every value: inlined (a call costs more than most of them do).
#define CSIMDJSON_INLINE __attribute__((always_inline)) inline

/// MurmurHash3's 64-bit finaliser: every input bit affects every output bit.
inline uint64_t mix64(uint64_t h) {
    h ^= h >> 33; h *= 0xff51afd7ed558ccdULL;
    h ^= h >> 33; h *= 0xc4ceb9fe1a85ec53ULL;
    h ^= h >> 33;
    return h;
}

/// A 64-bit hash of a byte range with a seed (MurmurHash3's 64-bit mixing on 8-byte words, then fmix64).
inline uint64_t hashBytes(const uint8_t *bytes, size_t count, uint64_t seed) {
    const uint64_t c1 = 0x87c37b91114253d5ULL, c2 = 0x4cf5ad432745937fULL;
    auto rotl = [](uint64_t x, int r) { return (x << r) | (x >> (64 - r)); };
    uint64_t h = seed ^ count;
    size_t i = 0;
    for (; i + 8 <= count; i += 8) {
        uint64_t k;
        std::memcpy(&k, bytes + i, 8);
        k *= c1; k = rotl(k, 31); k *= c2;
        h ^= k; h = rotl(h, 27) * 5 + 0x52dce729;
    }
    if (i < count) {
        uint64_t k = 0;
        std::memcpy(&k, bytes + i, count - i);
        k *= c1; k = rotl(k, 31); k *= c2;
        h ^= k;
    }
    return mix64(h);
}

/// simdjson's raw number token runs up to the next structural character, so it may end in whitespace.
void trimTrailingSpace(std::string_view &raw) {
    while (!raw.empty() && (raw.back() == ' ' || raw.back() == '\t' || raw.back() == '\n' || raw.back() == '\r')) {
        raw.remove_suffix(1);
    }
}

uint8_t foundFor(ondemand::json_type type) {
    switch (type) {
    case ondemand::json_type::object: return CSimdJSON_FoundObject;
    case ondemand::json_type::array: return CSimdJSON_FoundArray;
    case ondemand::json_type::string: return CSimdJSON_FoundString;
    case ondemand::json_type::number: return CSimdJSON_FoundNumber;
    case ondemand::json_type::boolean: return CSimdJSON_FoundBoolean;
    case ondemand::json_type::null: return CSimdJSON_FoundNull;
    }
    return CSimdJSON_FoundNothing;
}

}  // namespace

static_assert(sizeof(CSimdJSON_Probe) == 32, "a probe record is 32 bytes: a body holds one per probed object");
static_assert(SIMDJSON_MAXSIZE_BYTES <= UINT32_MAX, "records' offsets and lengths are 32-bit");

struct CSimdJSON_Parser {
    ondemand::parser json;
    CSimdJSON_Result result{};

    // Output.
    std::vector<CSimdJSON_Probe> probes;
    std::vector<uint8_t> unescaped;  // the escaped strings CSimdJSON_CursorReadScalar and the probes read
    std::vector<CSimdJSON_Violation> violations;
    std::string text;
    size_t violationsOmitted = 0;
    size_t maximumViolations = 0;  // violations recorded at most (CSimdJSON_CursorBegin); later ones are counted

    // Walk state.
    const char *input = nullptr;
    size_t inputLength = 0;
    ondemand::document document;
    /// The current JSON path: its first `depth` steps. Every open array or object is one level, so the step of
    /// level `depth` is overwritten for each of its members or elements (no stack to push and pop).
    PathStep path[CSimdJSON_MAX_DEPTH + 1];
    std::vector<SeenKey> keys;      // a stack: each open object whose names are checked owns the tail from its base

    size_t repeatFirst = 0, repeatEnd = 0;  // the probes a probed object may repeat (CSimdJSON_CursorRepeatFrom)
    size_t repeatCursor = 0;                // where the next repeated probe likely is
    size_t repeatOrigin = 0;                // the probe count when repeating began
    /// The repeatable probes by the first bytes of their text (repeatsEarlierProbe), made at the first object the
    /// nearby candidates do not match: an open-addressing table whose slot holds 1 + a probe index in its low half and
    /// the high half of the probe's key in its high half (0 is free).
    std::vector<uint64_t> repeatIndex;
    bool repeatIndexed = false;
    int depth = 0;

    // The cursor's state (CSimdJSON_Cursor*).
    /// An object or array the cursor entered: its iterator, and whether it stands on a child yet.
    struct Level {
        ondemand::object_iterator member, memberEnd;
        ondemand::array_iterator element, elementEnd;
        uint64_t index;
        size_t keysBase;  // an object whose member names are checked: its names are `keys[keysBase...]`
        bool started;
        bool isObject;
        bool checkNames;
    };
    Level levels[CSimdJSON_MAX_DEPTH + 1];  // level `depth - 1` is the container entered last
    CSimdJSON_CursorState cursorState{};    // the caller's cursor's (CSimdJSON_CursorStateOf)
    ondemand::value current;                // the value the cursor stands on, while `standing`
    bool standing = false;                  // the cursor stands on a value not yet read, skipped or entered
    bool trusted = false;                   // the text was validated by an earlier walk: nothing is checked again
    bool failed = false;                    // a fatal error ended the walk: its steps do nothing
    /// The values and member names the walk has met, counted in document order (a container before what it
    /// holds): the place of the value the cursor stands on, and of each violation (CSimdJSON_Violation.valueIndex).
    uint64_t steps = 0;

    // MARK: Errors

    int64_t offsetOf(const char *at) const { return at == nullptr ? -1 : int64_t(at - input); }

    int64_t currentOffset() {
        const char *at = nullptr;
        if (document.current_location().get(at) != SUCCESS) { return -1; }
        return offsetOf(at);
    }

    [[noreturn]] void fail(uint32_t status, uint32_t syntax, int64_t offset) {
        result.status = status;
        result.syntax = syntax;
        result.errorOffset = offset;
        throw Abort();
    }

    static constexpr int64_t askSimdjson = -2;

    /// Turns a simdjson error met while reading structure of the given kind into a fatal error, at `offset`
    /// or, by default, where simdjson's iterator stands.
    [[noreturn]] void failOn(error_code error, uint32_t syntax, int64_t offset = askSimdjson) {
        if (offset == askSimdjson) { offset = currentOffset(); }
        switch (error) {
        case UTF8_ERROR: fail(CSimdJSON_StatusInvalidUTF8, 0, -1);
        case MEMALLOC: fail(CSimdJSON_StatusOutOfMemory, 0, -1);
        case CAPACITY: fail(CSimdJSON_StatusTooLarge, 0, -1);
        case INCOMPLETE_ARRAY_OR_OBJECT: fail(CSimdJSON_StatusSyntax, CSimdJSON_SyntaxIncomplete, offset);
        case UNCLOSED_STRING: fail(CSimdJSON_StatusSyntax, CSimdJSON_SyntaxUnclosedString, -1);
        case UNESCAPED_CHARS: fail(CSimdJSON_StatusSyntax, CSimdJSON_SyntaxControlCharacter, -1);
        default: fail(CSimdJSON_StatusSyntax, syntax, offset);
        }
    }

    void violation(uint8_t kind, uint8_t found, int64_t offset, std::string_view lastStep = {}) {
        if (violations.size() >= maximumViolations) {
            ++violationsOmitted;
            return;
        }
        CSimdJSON_Violation record{};
        record.kind = kind;
        record.found = found;
        record.byteOffset = offset;
        record.valueIndex = steps;
        record.pathOffset = text.size();
        renderPath(lastStep);
        record.pathLength = uint32_t(text.size() - record.pathOffset);
        violations.push_back(record);
    }

    /// Appends the current path (plus `lastStep` when given) to `text`, for Swift to render: per step, 'k', a
    /// 4-byte length and the member name's bytes, or 'i' and an 8-byte array index (little-endian).
    void renderPath(std::string_view lastStep) {
        auto fixed = [&](uint64_t value, int count) {
            for (int i = 0; i < count; ++i) { text.push_back(char(uint8_t(value >> (8 * i)))); }
        };
        auto appendKey = [&](std::string_view key) {
            text.push_back('k');
            fixed(key.size(), 4);
            text.append(key);
        };
        for (int level = 0; level < depth; ++level) {
            const PathStep &step = path[level];
            if (step.key != nullptr) {
                appendKey(std::string_view(step.key, step.keyLength));
            } else {
                text.push_back('i');
                fixed(step.index, 8);
            }
        }
        if (lastStep.data() != nullptr) { appendKey(lastStep); }  // (a name, maybe "", ends the path)
    }

    // MARK: Walking helpers

    /// Counts one more level of nesting; call before consuming the opening bracket.
    void enter() {
        if (++depth > CSimdJSON_MAX_DEPTH) { fail(CSimdJSON_StatusTooDeep, 0, currentOffset()); }
    }
    void leave() { --depth; }

    CSIMDJSON_INLINE ondemand::json_type typeOf(ondemand::value &value) {
        ondemand::json_type type;
        if (error_code error = value.type().get(type)) { failOn(error, CSimdJSON_SyntaxValue); }
        return type;
    }

    /// Iterates an object's members, calling `body(key, keyOffset, value)`.
    template <typename Body> void forEachMember(ondemand::value &value, Body &&body) {
        enter();
        ondemand::object object;
        if (error_code error = value.get_object().get(object)) { failOn(error, CSimdJSON_SyntaxObject); }
        for (auto member : object) {
            ondemand::field field;
            if (error_code error = std::move(member).get(field)) { failOn(error, CSimdJSON_SyntaxObject); }
            int64_t keyOffset;
            std::string_view key = readName(field, keyOffset);
            ++steps;
            body(key, keyOffset, field.value());
        }
        leave();
    }

    /// A member's unescaped name (the offset of its opening quote in `keyOffset`), which ends the path.
    CSIMDJSON_INLINE std::string_view readName(ondemand::field &field, int64_t &keyOffset) {
        const char *raw = field.key().raw();  // after the opening quote
        keyOffset = offsetOf(raw) - 1;
        // The key's token runs to the ':' (the next structural character), which lies before the value.
        const char *colon = field.value().raw_json_token().data();
        while (colon > raw && *--colon != ':') {}  // only whitespace lies between
        if (*colon != ':' || colon == raw) {  // never read before the key (see CSimdJSON_PaddingIsInert)
            fail(CSimdJSON_StatusSyntax, CSimdJSON_SyntaxObject, keyOffset);
        }
        std::string_view key;
        if (!withoutEscapes(std::string_view(raw - 1, size_t(colon - (raw - 1))), key)) {
            if (error_code error = field.unescaped_key().get(key)) { failOn(error, CSimdJSON_SyntaxString, keyOffset); }
        }
        path[depth - 1] = {key.data(), key.size(), 0};
        return key;
    }

    /// Iterates an array's elements, calling `body(value)`.
    template <typename Body> void forEachElement(ondemand::value &value, Body &&body) {
        enter();
        ondemand::array array;
        if (error_code error = value.get_array().get(array)) { failOn(error, CSimdJSON_SyntaxArray); }
        uint64_t index = 0;
        for (auto element : array) {
            ondemand::value child;
            if (error_code error = std::move(element).get(child)) { failOn(error, CSimdJSON_SyntaxArray); }
            path[depth - 1] = {nullptr, 0, index++};
            body(child);
        }
        leave();
    }

    CSIMDJSON_INLINE NumberToken readNumber(ondemand::value &value, int64_t &offset) {
        std::string_view raw = value.raw_json_token();
        offset = offsetOf(raw.data());
        trimTrailingSpace(raw);
        NumberToken number = NumberToken::parse(raw, CSimdJSON_MAX_EXPONENT);
        if (number.outcome == NumberToken::syntax) {
            fail(CSimdJSON_StatusSyntax, CSimdJSON_SyntaxNumber, offset + int64_t(number.errorIndex));
        }
        return number;
    }

    /// The string's unescaped bytes: read in place when it has no escapes, else unescaped by simdjson.
    CSIMDJSON_INLINE std::string_view readString(ondemand::value &value) {
        std::string_view token = value.raw_json_token();  // from the opening quote; does not advance
        int64_t offset = offsetOf(token.data());
        std::string_view string;
        if (withoutEscapes(token, string)) {
            ondemand::raw_json_string skipped;
            if (error_code error = value.get_raw_json_string().get(skipped)) {
                failOn(error, CSimdJSON_SyntaxString, offset);
            }
        } else if (error_code error = value.get_string().get(string)) {
            failOn(error, CSimdJSON_SyntaxString, offset);
        }
        return string;
    }

    /// Sets `bytes` to the contents of the string token `token` (its opening quote up to the next structural
    /// character: the string, then maybe whitespace) when they hold no backslash: then its bytes are its value
    /// (stage 1 has already validated UTF-8, closed every string and rejected control characters).
    CSIMDJSON_INLINE bool withoutEscapes(std::string_view token, std::string_view &bytes) {
        size_t end = token.size();
        while (end > 1 && token[end - 1] != '"') { --end; }  // whitespace after the closing quote
        if (end < 2) { return false; }
        std::string_view contents = token.substr(1, end - 2);
        if (!backslashFree(contents.data(), contents.size())) { return false; }
        bytes = contents;
        return true;
    }

    /// The input's stretch [cleanFrom, nextBackslash) holds no backslash (both null: nothing known yet).
    const char *cleanFrom = nullptr, *nextBackslash = nullptr;

    /// Whether the `length` bytes at `at` hold no backslash. The walk meets strings in document order, so the
    /// input is searched forward for its next backslash once, and every string before that one needs no search
    /// of its own: the searches cover disjoint stretches, about the input once in all (one string at a time cost
    /// a memchr call per string, the bulk of the walk's string handling).
    CSIMDJSON_INLINE bool backslashFree(const char *at, size_t length) {
        if (at >= cleanFrom && at + length <= nextBackslash) { return true; }
        const char *end = input + inputLength;
        if (at < input || at + length > end || at < nextBackslash) {  // elsewhere, or behind the stretch known
            return std::memchr(at, '\\', length) == nullptr;
        }
        cleanFrom = at;
        const void *found = std::memchr(at, '\\', size_t(end - at));
        nextBackslash = found != nullptr ? static_cast<const char *>(found) : end;
        return at + length <= nextBackslash;
    }

    // MARK: Validation

    /// A number, reporting an exponent out of range as a violation.
    CSIMDJSON_INLINE NumberToken readCheckedNumber(ondemand::value &value) {
        int64_t offset;
        NumberToken number = readNumber(value, offset);
        if (number.outcome == NumberToken::exponentOutOfRange) {
            violation(CSimdJSON_ViolationExponentRange, CSimdJSON_FoundNumber, offset);
        }
        return number;
    }

    bool readBool(ondemand::value &value) {
        int64_t offset = currentOffset();
        bool flag;
        if (error_code error = value.get_bool().get(flag)) { failOn(error, CSimdJSON_SyntaxLiteral, offset); }
        return flag;
    }

    void readNull(ondemand::value &value) {
        int64_t offset = currentOffset();
        bool isNull;
        if (error_code error = value.is_null().get(isNull)) { failOn(error, CSimdJSON_SyntaxLiteral, offset); }
        if (!isNull) { fail(CSimdJSON_StatusSyntax, CSimdJSON_SyntaxLiteral, offset); }
    }

    /// Validates any JSON value: its syntax, its objects' member names (none twice) and its numbers' exponents.
    void check(ondemand::value &value) {
        // (Each value counts one step: a container before what it holds, a scalar once validated.)
        switch (typeOf(value)) {
        case ondemand::json_type::object: {
            ++steps;
            size_t base = keys.size();
            forEachMember(value, [&](std::string_view key, int64_t keyOffset, ondemand::value &member) {
                keys.push_back({key.data(), uint32_t(key.size()), 0, uint32_t(keyOffset)});
                check(member);
            });
            reportRepeatedKeys(base);
            break;
        }
        case ondemand::json_type::array:
            ++steps;
            forEachElement(value, [&](ondemand::value &element) { check(element); });
            break;
        case ondemand::json_type::string:
            readString(value);
            ++steps;
            break;
        case ondemand::json_type::number: {
            std::string_view raw = value.raw_json_token();
            trimTrailingSpace(raw);
            if (!NumberToken::isPlainInteger(raw)) { readCheckedNumber(value); }  // the full grammar and exponent
            ++steps;
            break;
        }
        case ondemand::json_type::boolean:
            readBool(value);
            ++steps;
            break;
        case ondemand::json_type::null:
            readNull(value);
            ++steps;
            break;
        }
    }

    /// Reports every member name of the object whose names are `keys[base...]` that an earlier member already
    /// has (each at its own place, in document order), and pops them.
    void reportRepeatedKeys(size_t base) {
        size_t count = keys.size() - base;
        if (count >= 2 && count <= 16) {  // most objects: compare each name with the ones before it
            // ... that share its bucket (SeenKey::bucket): most names share none, and are compared with none.
            const SeenKey *names = keys.data() + base;  // (reporting does not touch `keys`)
            uint64_t buckets = uint64_t(1) << names[0].bucket();
            for (size_t j = 1; j < count; ++j) {
                uint64_t bucket = uint64_t(1) << names[j].bucket();
                bool shared = (buckets & bucket) != 0;
                buckets |= bucket;
                if (!shared) { continue; }
                for (size_t i = 0; i < j; ++i) {
                    if (names[i].sameName(names[j])) {
                        violation(CSimdJSON_ViolationDuplicateMember, CSimdJSON_FoundNothing, names[j].offset,
                                  names[j].name());
                        break;
                    }
                }
            }
        } else if (count > 16) {  // large objects: sort by name, then place; mark repeats; report them in place order
            auto first = keys.begin() + std::ptrdiff_t(base);
            std::sort(first, keys.end(), [](const SeenKey &a, const SeenKey &b) {
                int order = a.name().compare(b.name());
                return order != 0 ? order < 0 : a.offset < b.offset;
            });
            bool repeated = false;
            for (auto key = first + 1; key < keys.end(); ++key) {
                if (key->sameName(key[-1])) { key->repeat = repeated = true; }
            }
            if (repeated) {
                std::sort(first, keys.end(), [](const SeenKey &a, const SeenKey &b) { return a.offset < b.offset; });
                for (auto key = first; key < keys.end(); ++key) {
                    if (key->repeat) { violation(CSimdJSON_ViolationDuplicateMember, CSimdJSON_FoundNothing, key->offset, key->name()); }
                }
            }
        }
        keys.erase(keys.begin() + std::ptrdiff_t(base), keys.end());
    }

    // MARK: Scalars and probed objects

    /// Reads a string or an integer written without fraction or exponent that fits Int64, of the kinds `accepted`
    /// (CSimdJSON_Accept*) holds; any other value is recorded as a violation of kind `violationKind` (what was
    /// found, where) and validated.
    CSIMDJSON_INLINE WalkedScalar readScalar(ondemand::value &value, uint8_t accepted, uint8_t violationKind) {
        WalkedScalar scalar{};
        int64_t offset;
        ondemand::json_type type = typeOf(value);  // (peeks: the iterator stays on the value)
        if (type == ondemand::json_type::string && (accepted & CSimdJSON_AcceptString) != 0) {
            std::string_view string = readString(value);
            scalar.kind = CSimdJSON_ScalarString;
            scalar.length = uint32_t(string.size());
            auto at = reinterpret_cast<uintptr_t>(string.data()), base = reinterpret_cast<uintptr_t>(input);
            if (at >= base && at + string.size() <= base + inputLength) {  // (unrelated pointers compare as integers)
                scalar.inInput = 1;  // no escapes: the input holds its bytes
                scalar.offset = uint64_t(string.data() - input);
            } else {
                scalar.offset = unescaped.size();
                unescaped.insert(unescaped.end(), string.begin(), string.end());
            }
            return scalar;
        }
        if (type == ondemand::json_type::number && (accepted & CSimdJSON_AcceptInteger) != 0) {
            NumberToken number = readNumber(value, offset);
            if (number.int64Value(scalar.integer)) {
                scalar.kind = CSimdJSON_ScalarInteger;
                return scalar;
            }
            uint8_t found = number.isInteger ? CSimdJSON_FoundIntegerOutOfRange : CSimdJSON_FoundFractionalNumber;
            violation(violationKind, found, offset);
            return scalar;
        }
        violation(violationKind, foundFor(type), currentOffset());
        check(value);
        return scalar;
    }

    /// Reports and skips a value of the wrong type; returns whether the type was right.
    CSIMDJSON_INLINE bool expect(ondemand::value &value, ondemand::json_type wanted) {
        ondemand::json_type type = typeOf(value);  // (peeks: the iterator stays on the value)
        if (type == wanted) { return true; }
        uint8_t kind = wanted == ondemand::json_type::object ? CSimdJSON_ViolationExpectedObject
                                                             : CSimdJSON_ViolationExpectedArray;
        violation(kind, foundFor(type), currentOffset());
        check(value);
        return false;
    }

    /// Reports a member name seen twice (the path already ends with it) and validates its value.
    void duplicate(int64_t keyOffset, ondemand::value &value) {
        violation(CSimdJSON_ViolationDuplicateMember, CSimdJSON_FoundNothing, keyOffset);
        check(value);
    }

    /// What a probe reads of each object (CSimdJSON_CursorProbeEach): the member it names, the kinds its value
    /// may have, and the violation recorded when it has another.
    struct ProbedMember {
        std::string_view name;
        uint8_t accepted;
        uint8_t violationKind;
        uint64_t seed;  // of the scalar's hash (CSimdJSON_Probe.memberHash)
    };

    /// The hash of a scalar read (CSimdJSON_Probe.memberHash): of an integer's value, of a string's unescaped
    /// bytes; 0 for none.
    uint32_t hashScalar(const WalkedScalar &scalar, uint64_t seed) const {
        switch (scalar.kind) {
        case CSimdJSON_ScalarInteger: return uint32_t(mix64(uint64_t(scalar.integer) ^ seed));
        case CSimdJSON_ScalarString: {
            const uint8_t *bytes = scalar.inInput ? reinterpret_cast<const uint8_t *>(input) + scalar.offset
                                                  : unescaped.data() + scalar.offset;
            if (scalar.length <= 8) {  // a short string: one word, mixed once (the same for either place of its bytes)
                // (The masked read and the copy give the same word only on a little-endian machine.)
                static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "short strings are hashed as little-endian words");
                uint64_t word = 0;
                if (scalar.inInput) {  // the input's padding makes 8 bytes readable from any string in it
                    std::memcpy(&word, bytes, 8);
                    word &= scalar.length == 8 ? ~uint64_t(0) : (uint64_t(1) << (8 * scalar.length)) - 1;
                } else {  // (an unescaped string had an escape: it is never empty, and its bytes exist)
                    std::memcpy(&word, bytes, scalar.length);
                }
                return uint32_t(mix64(word ^ seed ^ (uint64_t(scalar.length) << 60)));
            }
            return uint32_t(hashBytes(bytes, scalar.length, seed));
        }
        default: return 0;
        }
    }

    /// Iterates an object's members: reads the first member named `probed.name` into `scalar`, reports any later
    /// one, and passes every other member to `other`. Returns whether there was one.
    template <typename Other>
    bool forEachProbedMember(ondemand::value &value, const ProbedMember &probed, WalkedScalar &scalar, Other &&other) {
        bool found = false;
        forEachMember(value, [&](std::string_view key, int64_t keyOffset, ondemand::value &member) {
            if (key != probed.name) {
                other(key, keyOffset, member);
            } else if (found) {
                duplicate(keyOffset, member);
            } else {
                found = true;
                scalar = readScalar(member, probed.accepted, probed.violationKind);
            }
        });
        return found;
    }

    /// The end of the object or array that starts at `start` and was just walked: the walk stands on the token
    /// after its closing bracket (inside an enclosing array or object there is one), or at the input's end.
    int64_t endOfValueWalked(int64_t start, char bracket) {
        int64_t after = currentOffset();
        int64_t end = after < 0 ? int64_t(inputLength) : after;
        while (end > start && input[end - 1] != bracket) { --end; }  // only whitespace lies between
        return end;
    }

    /// Validates `value`, whose text starts at `start`, as `check` does, and returns its text's length.
    int64_t checkedLength(ondemand::value &value, int64_t start) {
        std::string_view raw = value.raw_json_token();  // does not advance
        char first = raw.empty() ? 0 : raw[0];
        check(value);
        if (first == '{' || first == '[') { return endOfValueWalked(start, first == '{' ? '}' : ']') - start; }
        trimTrailingSpace(raw);  // a scalar's token runs to the next structural character
        return int64_t(raw.size());
    }

    /// Probes an object (CSimdJSON_CursorProbeEach): records where its text lies and the scalar of its member
    /// `probed.name`; every value is validated.
    CSIMDJSON_INLINE void probeObject(ondemand::value &value, const ProbedMember &probed) {
        if (!expect(value, ondemand::json_type::object)) { return; }
        int64_t start = currentOffset();  // the '{'
        if (start >= 0 && repeatsEarlierProbe(size_t(start))) { return; }
        size_t violationsBefore = violations.size() + violationsOmitted;
        WalkedScalar scalar{};
        size_t base = keys.size();
        bool found = forEachProbedMember(value, probed, scalar, [&](std::string_view key, int64_t keyOffset, ondemand::value &member) {
            keys.push_back({key.data(), uint32_t(key.size()), 0, uint32_t(keyOffset)});
            check(member);
        });
        reportRepeatedKeys(base);
        if (!found) { violation(CSimdJSON_ViolationMissingMember, CSimdJSON_FoundNothing, -1, probed.name); }
        int64_t end = endOfValueWalked(start, '}');
        // No hash of the text: comparing two texts' lengths, then bytes, rejects as fast as a hash would.
        CSimdJSON_Probe probe{};
        probe.member = scalar.packed();
        probe.memberKind = scalar.kind;
        probe.memberInInput = scalar.inInput;
        probe.memberHash = hashScalar(scalar, probed.seed);
        probe.textOffset = uint32_t(start);
        probe.textLength = uint32_t(end - start);
        probe.depth = uint16_t(depth);
        probe.clean = violations.size() + violationsOmitted == violationsBefore;
        if (isClean()) { probes.push_back(probe); }
    }

    /// Whether the walk has found no violation. Probe records are kept only until the first one: every record
    /// kept is then of an object that broke no rule, as large as the caller says such an object is at least, and
    /// the reservation the caller asked for holds them all (CSimdJSON_CursorBegin): a body of empty objects
    /// (3 bytes each) cannot make the table outgrow it.
    bool isClean() const { return violations.empty() && violationsOmitted == 0; }

    /// When the object starting at `start` has the very bytes of a clean probe among those
    /// CSimdJSON_CursorRepeatFrom named (tried: the one after the last repeat, the one after that, the one as far
    /// from the first as this probe is from where repeating began, then the one whose first bytes are this
    /// object's, found in repeatIndex), records it as that one at this place and returns true: the caller leaves
    /// the value unread, and simdjson skips it.
    ///
    /// Sound because an object's validity depends only on its bytes and its depth: the same bytes from the start
    /// of a value tokenise the same way (stage 1 has validated the UTF-8 of the whole input), so the text is
    /// one object of exactly the earlier one's length, with the same probed member and no violation.
    CSIMDJSON_INLINE bool repeatsEarlierProbe(size_t start) {
        if (repeatEnd == repeatFirst) { return false; }
        size_t sameIndex = repeatFirst + (probes.size() - repeatOrigin);
        size_t candidates[3] = {repeatCursor, repeatCursor + 1, sameIndex};
        for (size_t k : candidates) {
            if (k >= repeatFirst && k < repeatEnd && repeats(start, k)) { return true; }
        }
        if (start + kRepeatKeyLength > inputLength) { return false; }
        if (!repeatIndexed) { indexRepeatable(); }
        size_t mask = repeatIndex.size() - 1;
        uint64_t key = repeatKey(input + start);
        size_t slot = key & mask;
        for (size_t tried = 0; tried < kRepeatIndexTries; ++tried, slot = (slot + 1) & mask) {
            uint64_t entry = repeatIndex[slot];
            if (entry == 0) { return false; }
            size_t k = uint32_t(entry) - 1;
            if (entry >> 32 == key >> 32 &&
                std::memcmp(input + start, input + probes[k].textOffset, kRepeatKeyLength) == 0) {
                return repeats(start, k);  // (the index holds one probe of each first bytes)
            }
        }
        return false;
    }

    /// Records the object starting at `start` as probe `k` again, when it is clean, of the same depth, and has the
    /// very same bytes; returns whether it was.
    CSIMDJSON_INLINE bool repeats(size_t start, size_t k) {
        const CSimdJSON_Probe earlier = probes[k];  // a copy: probes grows below
        size_t length = earlier.textLength;
        if (!earlier.clean || earlier.depth != depth || start + length > inputLength ||
            std::memcmp(input + start, input + earlier.textOffset, length) != 0) {
            return false;
        }
        CSimdJSON_Probe probe = earlier;
        probe.repeatOf = uint32_t(k + 1);
        probe.textOffset = uint32_t(start);
        if (probe.memberKind == CSimdJSON_ScalarString && probe.memberInInput) {  // it moves with the text
            probe.member = (uint32_t(probe.member) - earlier.textOffset + start) | (probe.member >> 32 << 32);
        }
        probes.push_back(probe);
        repeatCursor = k + 1;
        return true;
    }

    /// How many first bytes of an object's text repeatIndex is keyed by, and how many slots a lookup or an
    /// insertion tries: texts crafted to share a slot cost a bounded number of tries, and are then only not
    /// found (they are walked).
    static constexpr size_t kRepeatKeyLength = 16, kRepeatIndexTries = 8;
    /// The most slots repeatIndex has (2 MiB: twice the probes of 131,072 objects), whatever the input's size.
    static constexpr size_t kRepeatIndexSlots = 1u << 18;

    /// The hash of the first kRepeatKeyLength bytes at `bytes` (a weak mixing is enough: the tries are bounded,
    /// and every candidate's bytes are compared).
    static uint64_t repeatKey(const char *bytes) {
        uint64_t low, high;
        std::memcpy(&low, bytes, 8);
        std::memcpy(&high, bytes + 8, 8);
        return mix64(low ^ (high << 32 | high >> 32));
    }

    /// Fills repeatIndex with the clean repeatable probes of at least kRepeatKeyLength bytes, the first of each
    /// first bytes (twice as many slots as such probes, a power of two, at most kRepeatIndexSlots and, past 16
    /// slots, at most an eighth of the input's bytes: past that, the later probes find no slot within their tries
    /// and are only not indexed). A slot holds the probe's number plus one in its low half and the high half of its
    /// key in its high half, 0 when empty: a slot of other first bytes is passed over without reading their text,
    /// which lies anywhere in the input.
    void indexRepeatable() {
        repeatIndexed = true;
        size_t count = 0;
        for (size_t k = repeatFirst; k < repeatEnd; ++k) {
            count += probes[k].clean && probes[k].textLength >= kRepeatKeyLength;
        }
        // Within an eighth of the input's bytes too, so that a body of many small items (ids alone) is not made to
        // hold an index larger than itself would justify (the memory budget counts bytes per body byte).
        size_t slots = 16, most = std::max<size_t>(16, inputLength / (8 * sizeof(uint64_t)));
        while (slots < 2 * count && slots < kRepeatIndexSlots && 2 * slots <= most) { slots *= 2; }
        repeatIndex.assign(slots, 0);
        size_t mask = slots - 1;
        for (size_t k = repeatFirst; k < repeatEnd; ++k) {
            const CSimdJSON_Probe &probe = probes[k];
            if (!probe.clean || probe.textLength < kRepeatKeyLength) { continue; }
            const char *text = input + probe.textOffset;
            uint64_t key = repeatKey(text);
            size_t slot = key & mask;
            for (size_t tried = 0; tried < kRepeatIndexTries; ++tried, slot = (slot + 1) & mask) {
                uint64_t entry = repeatIndex[slot];
                if (entry == 0) {
                    repeatIndex[slot] = (key >> 32 << 32) | uint64_t(k + 1);
                    break;
                }
                if (entry >> 32 == key >> 32 &&
                    std::memcmp(text, input + probes[uint32_t(entry) - 1].textOffset, kRepeatKeyLength) == 0) {
                    break;
                }
            }
        }
    }

    /// A document that is one scalar: validates it to its end and returns its token (a string's unescaped bytes
    /// in `unescaped`).
    std::string_view scalarRoot(ondemand::json_type type, std::string_view &unescaped) {
        std::string_view raw;
        if (error_code error = document.raw_json_token().get(raw)) { failOn(error, CSimdJSON_SyntaxValue, 0); }
        if (type == ondemand::json_type::string) {
            if (error_code error = document.get_string().get(unescaped)) { failOn(error, CSimdJSON_SyntaxString, 0); }
            requireEnd();
            return raw;
        }
        if (type == ondemand::json_type::number) {
            // raw_json_token does not advance: the token runs to the next structural character, so it ends
            // before the input does exactly when something follows the number.
            const char *after = raw.data() + raw.size();
            trimTrailingSpace(raw);
            NumberToken number = NumberToken::parse(raw, CSimdJSON_MAX_EXPONENT);
            if (number.outcome == NumberToken::syntax) {
                fail(CSimdJSON_StatusSyntax, CSimdJSON_SyntaxNumber, offsetOf(raw.data()) + int64_t(number.errorIndex));
            }
            if (after != input + inputLength) { fail(CSimdJSON_StatusSyntax, CSimdJSON_SyntaxTrailing, offsetOf(after)); }
            return raw;
        }
        if (type == ondemand::json_type::boolean) {
            bool flag;
            if (error_code error = document.get_bool().get(flag)) { failOn(error, CSimdJSON_SyntaxLiteral, 0); }
        } else {
            // simdjson 3.0.1's document::is_null() refuses a root `null` followed by whitespace ("null\n"), so
            // the token is read as the number's is: it runs to the next structural character.
            const char *after = raw.data() + raw.size();
            std::string_view token = raw;
            trimTrailingSpace(token);
            if (token != "null") { fail(CSimdJSON_StatusSyntax, CSimdJSON_SyntaxLiteral, offsetOf(raw.data())); }
            if (after != input + inputLength) { fail(CSimdJSON_StatusSyntax, CSimdJSON_SyntaxTrailing, offsetOf(after)); }
            return token;
        }
        requireEnd();
        trimTrailingSpace(raw);
        return raw;
    }

    void requireEnd() {
        const char *at = nullptr;
        if (document.current_location().get(at) == SUCCESS && at != nullptr) {
            fail(CSimdJSON_StatusSyntax, CSimdJSON_SyntaxTrailing, offsetOf(at));
        }
    }

    // MARK: Entry

    void reset() {
        result = CSimdJSON_Result{};
        steps = 0;
        probes.clear();
        unescaped.clear();
        violations.clear();
        text.clear();
        violationsOmitted = 0;
        keys.clear();
        cleanFrom = nextBackslash = nullptr;
        repeatFirst = repeatEnd = repeatCursor = repeatOrigin = 0;
        repeatIndexed = false;
        depth = 0;
        failed = false;
        standing = false;
        trusted = false;
    }

    /// Starts a walk over `bytes[0 ..< length]` (stage 1); false when it ended at once (empty, or a fatal error).
    bool start(const uint8_t *bytes, size_t length, size_t capacity) {
        input = reinterpret_cast<const char *>(bytes);
        inputLength = length;
        return attempt([&] {
            error_code error = json.iterate(bytes, length, capacity).get(document);
            if (error == EMPTY) {
                result.status = CSimdJSON_StatusEmpty;
                throw Abort();
            }
            if (error != SUCCESS) { failOn(error, CSimdJSON_SyntaxValue, 0); }
        });
    }

    /// Runs one step of a walk, `body`; false when a fatal error has ended the walk (now or before: the status is
    /// recorded, and later steps do nothing).
    template <typename Body> bool attempt(Body &&body) {
        if (failed) { return false; }
        try {
            body();
            return true;
        } catch (const Abort &) {
        } catch (...) {  // std::bad_alloc from a buffer or a vector
            result.status = CSimdJSON_StatusOutOfMemory;
        }
        failed = true;
        return false;
    }

    /// Ends a walk, recording its outcome in `result`.
    void finish() {
        // The walk is over: a large input's structural index (4 bytes per token: more than the input for small
        // values) is not needed while the caller copies the results out, so free it now rather than when the
        // handle goes, which lowers the request's peak memory. Small inputs keep their buffers for the next parse.
        if (inputLength > kReleaseIndexAbove) { json = ondemand::parser{}; }
        publish();
        failed = true;  // (the walk is over: a cursor step now does nothing)
        standing = false;
    }

    /// Runs a cursor step that reads, skips or enters the value the cursor stands on (nothing when it stands on
    /// none: after the walk, or a step out of order).
    template <typename Body> bool onValue(Body &&body) {
        if (!standing) { return false; }
        standing = false;
        return attempt(body);
    }

    // MARK: The cursor (CSimdJSON_Cursor*; see CSimdJSON.h)

    bool cursorBegin(const uint8_t *bytes, size_t length, size_t capacity, size_t probeCount, size_t violationCap,
                     bool validated) {
        reset();
        trusted = validated;
        maximumViolations = violationCap;
        input = reinterpret_cast<const char *>(bytes);
        inputLength = length;
        // A large input's probe table is reserved once for the most records it can hold: growing it by doubling
        // would hold the old and the new copy at once. (simdjson refuses an input of 4 GiB or more, CAPACITY,
        // before the walk: records' offsets fit 32 bits.)
        if (length > kReleaseIndexAbove && !attempt([&] { probes.reserve(probeCount); })) {
            return false;
        }
        return start(bytes, length, capacity);
    }

    /// Describes the value the cursor stands on (`standing` must be set): its kind, where its text starts, a
    /// scalar's length (a string's with its quotes), and its place.
    void describe(CSimdJSON_Standing *out) {
        if (out == nullptr) { return; }
        std::string_view raw = current.raw_json_token();  // from its first byte; does not advance
        *out = {};
        out->kind = foundFor(typeOf(current));
        out->offset = offsetOf(raw.data());
        if (out->kind != CSimdJSON_FoundObject && out->kind != CSimdJSON_FoundArray) {
            trimTrailingSpace(raw);  // a scalar's token runs to the next structural character
            out->length = raw.size();
        }
        out->place = steps;
    }

    uint8_t cursorRoot(CSimdJSON_Standing *out) {
        uint8_t found = CSimdJSON_FoundNothing;
        attempt([&] {
            ondemand::json_type type;
            if (error_code error = document.type().get(type)) { failOn(error, CSimdJSON_SyntaxValue, 0); }
            if (type == ondemand::json_type::object || type == ondemand::json_type::array) {
                if (error_code error = document.get_value().get(current)) { failOn(error, CSimdJSON_SyntaxValue); }
                standing = true;
                describe(out);
            } else {  // a scalar: validated to its end at once
                std::string_view unescaped;
                std::string_view token = scalarRoot(type, unescaped);
                // A reader's walk holds a number to the rules any number it meets follows.
                if (out != nullptr && !trusted && type == ondemand::json_type::number &&
                    NumberToken::parse(token, CSimdJSON_MAX_EXPONENT).outcome == NumberToken::exponentOutOfRange) {
                    violation(CSimdJSON_ViolationExponentRange, CSimdJSON_FoundNumber, offsetOf(token.data()));
                }
                ++steps;
                if (out != nullptr) { *out = {}; }
            }
            found = foundFor(type);
            if (out != nullptr) { out->kind = found; }
        });
        return found;
    }

    int64_t cursorEnter(bool checkNames) {
        int64_t start = -1;
        onValue([&] {
            start = offsetOf(current.raw_json_token().data());  // (peeks: the iterator stays on the bracket)
            enter();
            ++steps;
            Level &level = levels[depth - 1];
            level.started = false;
            level.index = 0;
            level.isObject = input[start] == '{';
            level.checkNames = checkNames && level.isObject && !trusted;
            level.keysBase = keys.size();
            if (level.isObject) {
                ondemand::object object;
                if (error_code error = current.get_object().get(object)) { failOn(error, CSimdJSON_SyntaxObject); }
                if (error_code error = object.begin().get(level.member)) { failOn(error, CSimdJSON_SyntaxObject); }
                if (error_code error = object.end().get(level.memberEnd)) { failOn(error, CSimdJSON_SyntaxObject); }
            } else {
                ondemand::array array;
                if (error_code error = current.get_array().get(array)) { failOn(error, CSimdJSON_SyntaxArray); }
                if (error_code error = array.begin().get(level.element)) { failOn(error, CSimdJSON_SyntaxArray); }
                if (error_code error = array.end().get(level.elementEnd)) { failOn(error, CSimdJSON_SyntaxArray); }
            }
        });
        return start;
    }

    /// Moves `at`, an iterator of the container entered last, to its next child; false at its end (the container
    /// is then left).
    template <typename Iterator> bool advance(Iterator &at, Iterator &end, bool &started) {
        if (standing) {  // moved past unread: validated all the same (simdjson skips it)
            standing = false;
            if (!trusted) { check(current); }
        }
        if (started) { ++at; }
        started = true;
        if (at != end) { return true; }
        leave();
        return false;
    }

    bool cursorNextMember(std::string_view &name, int64_t &nameOffset, CSimdJSON_Standing *out) {
        bool found = false;
        attempt([&] {
            // (Nothing entered, or an array entered last: a caller's mistake, answered as an end.)
            if (depth == 0 || !levels[depth - 1].isObject) { return; }
            Level &level = levels[depth - 1];
            if (!advance(level.member, level.memberEnd, level.started)) {
                if (level.checkNames) { reportRepeatedKeys(level.keysBase); }
                if (out != nullptr) { out->place = steps; }  // (past the object: the place of what ends it)
                return;
            }
            ondemand::field field;
            if (error_code error = (*level.member).get(field)) { failOn(error, CSimdJSON_SyntaxObject); }
            name = readName(field, nameOffset);
            if (level.checkNames) { keys.push_back({name.data(), uint32_t(name.size()), 0, uint32_t(nameOffset)}); }
            ++steps;
            current = field.value();
            standing = true;
            describe(out);
            found = true;
        });
        return found;
    }

    bool cursorNextElement(CSimdJSON_Standing *out) {
        bool found = false;
        attempt([&] {
            if (depth == 0 || levels[depth - 1].isObject) { return; }  // (a caller's mistake, as above)
            Level &level = levels[depth - 1];
            if (!advance(level.element, level.elementEnd, level.started)) {
                if (out != nullptr) { out->place = steps; }  // (past the array: the place of what ends it)
                return;
            }
            if (error_code error = (*level.element).get(current)) { failOn(error, CSimdJSON_SyntaxArray); }
            path[depth - 1] = {nullptr, 0, level.index++};
            standing = true;
            describe(out);
            found = true;
        });
        return found;
    }

    bool cursorReadString(std::string_view &string) {
        return onValue([&] {
            if (typeOf(current) != ondemand::json_type::string) {  // (a caller's mistake: read as skipped)
                check(current);
                return;
            }
            string = readString(current);
            ++steps;
        });
    }

    CSimdJSON_Scalar cursorReadScalar(uint8_t accepted, uint8_t violationKind) {
        CSimdJSON_Scalar read{};
        onValue([&] {
            WalkedScalar scalar = readScalar(current, accepted, violationKind);
            read = {scalar.packed(), scalar.kind, scalar.inInput};
        });
        return read;
    }

    uint32_t cursorProbeEach(const ProbedMember &probed) {
        size_t first = probes.size();
        onValue([&] {
            if (expect(current, ondemand::json_type::array)) {
                forEachElement(current, [&](ondemand::value &element) { probeObject(element, probed); });
            }
        });
        return uint32_t(probes.size() - first);  // (fewer than 2^29 records: a probed object is at least 2 bytes)
    }

    uint64_t cursorSpan(uint64_t &offset) {
        uint64_t length = 0;
        onValue([&] {
            int64_t start = offsetOf(current.raw_json_token().data());  // (peeks)
            offset = uint64_t(start);
            length = uint64_t(checkedLength(current, start));
        });
        return length;
    }

    void cursorRepeatFrom(size_t first, size_t end) {
        repeatFirst = repeatCursor = std::min(first, probes.size());
        repeatEnd = std::max(repeatFirst, std::min(end, probes.size()));
        repeatOrigin = probes.size();
        repeatIndexed = false;
    }

    static constexpr size_t kReleaseIndexAbove = 4u << 20;

    // MARK: Comparing two spans

    ondemand::parser otherJSON;  // the second text of sameItemContent (the first uses `json`)
    ondemand::document otherDocument;

    /// An answer of the lockstep comparison.
    enum Same { different = 0, equal = 1, unknown = -1 };

    /// CSimdJSON_SameObjectContent: compares two object texts probed before, member by member in the order written,
    /// but for their members named `skipped`.
    Same sameObjectContent(const uint8_t *bytesA, size_t capacityA, size_t offsetA, size_t lengthA,
                         const uint8_t *bytesB, size_t capacityB, size_t offsetB, size_t lengthB,
                         std::string_view skipped) {
        reset();
        input = reinterpret_cast<const char *>(bytesA + offsetA);
        inputLength = lengthA;
        try {
            ondemand::value a, b;
            if (json.iterate(bytesA + offsetA, lengthA, capacityA - offsetA).get(document) != SUCCESS ||
                document.get_value().get(a) != SUCCESS ||
                otherJSON.iterate(bytesB + offsetB, lengthB, capacityB - offsetB).get(otherDocument) != SUCCESS ||
                otherDocument.get_value().get(b) != SUCCESS) {
                return unknown;
            }
            return sameObjects(a, b, &skipped);
        } catch (...) {  // out of memory (the texts were validated by the parse that found them)
            return unknown;
        }
    }

    /// The next member of `object` (skipping those named `*skipped`, unless it is null), or false at its end.
    bool nextMember(ondemand::object_iterator &at, ondemand::object_iterator &end, const std::string_view *skipped,
                    std::string_view &key,
                    ondemand::value &value) {
        while (at != end) {
            ondemand::field field;
            if (error_code error = (*at).get(field)) { failOn(error, CSimdJSON_SyntaxObject); }
            if (error_code error = field.unescaped_key().get(key)) { failOn(error, CSimdJSON_SyntaxString); }
            value = field.value();
            if (skipped != nullptr && key == *skipped) {
                check(value);  // consumed, so that the iterator can move on
                ++at;
                continue;
            }
            return true;
        }
        return false;
    }

    /// Two objects' members in the order written: different at the first member whose value differs (keys are
    /// unique, so each side's member of that name is that one), unknown when the names stop matching (the
    /// same members may come in another order).
    Same sameObjects(ondemand::value &a, ondemand::value &b, const std::string_view *skipped) {
        ondemand::object objectA, objectB;
        if (error_code error = a.get_object().get(objectA)) { failOn(error, CSimdJSON_SyntaxObject); }
        if (error_code error = b.get_object().get(objectB)) { failOn(error, CSimdJSON_SyntaxObject); }
        ondemand::object_iterator atA, endA, atB, endB;
        if (objectA.begin().get(atA) || objectA.end().get(endA) || objectB.begin().get(atB) || objectB.end().get(endB)) {
            return unknown;
        }
        // Names live in each parser's string buffer or the input: both stay valid while the documents do.
        std::string_view keyA, keyB;
        ondemand::value valueA, valueB;
        while (true) {
            bool hasA = nextMember(atA, endA, skipped, keyA, valueA);
            bool hasB = nextMember(atB, endB, skipped, keyB, valueB);
            if (!hasA || !hasB) { return hasA == hasB ? equal : different; }  // a name only one side has
            if (keyA != keyB) { return unknown; }
            Same same = sameValues(valueA, valueB);
            if (same != equal) { return same; }
            ++atA;
            ++atB;
        }
    }

    Same sameValues(ondemand::value &a, ondemand::value &b) {
        ondemand::json_type type = typeOf(a);
        if (type != typeOf(b)) { return different; }
        switch (type) {
        case ondemand::json_type::object:
            return sameObjects(a, b, nullptr);
        case ondemand::json_type::array: {
            ondemand::array arrayA, arrayB;
            if (error_code error = a.get_array().get(arrayA)) { failOn(error, CSimdJSON_SyntaxArray); }
            if (error_code error = b.get_array().get(arrayB)) { failOn(error, CSimdJSON_SyntaxArray); }
            ondemand::array_iterator atA, endA, atB, endB;
            if (arrayA.begin().get(atA) || arrayA.end().get(endA) || arrayB.begin().get(atB) || arrayB.end().get(endB)) {
                return unknown;
            }
            while (true) {
                bool hasA = atA != endA, hasB = atB != endB;
                if (!hasA || !hasB) { return hasA == hasB ? equal : different; }
                ondemand::value elementA, elementB;
                if (error_code error = (*atA).get(elementA)) { failOn(error, CSimdJSON_SyntaxArray); }
                if (error_code error = (*atB).get(elementB)) { failOn(error, CSimdJSON_SyntaxArray); }
                Same same = sameValues(elementA, elementB);
                if (same != equal) { return same; }
                ++atA;
                ++atB;
            }
        }
        case ondemand::json_type::string:
            // (readString's views stay valid: each parser keeps every unescaped string of its document.)
            return readString(a) == readString(b) ? equal : different;
        case ondemand::json_type::number: {
            std::string_view rawA = a.raw_json_token(), rawB = b.raw_json_token();
            trimTrailingSpace(rawA);
            trimTrailingSpace(rawB);
            if (rawA == rawB) { return equal; }
            NumberToken numberA = NumberToken::parse(rawA, CSimdJSON_MAX_EXPONENT);
            NumberToken numberB = NumberToken::parse(rawB, CSimdJSON_MAX_EXPONENT);
            if (numberA.outcome != NumberToken::ok || numberB.outcome != NumberToken::ok) { return unknown; }
            return numberA.sameValue(numberB) ? equal : different;
        }
        case ondemand::json_type::boolean:
            return readBool(a) == readBool(b) ? equal : different;
        case ondemand::json_type::null:
            return equal;  // (both null: the parse checked the literals)
        }
        return unknown;
    }

    void publish() {
        result.probes = probes.data();
        result.probeCount = probes.size();
        result.unescaped = unescaped.data();
        result.unescapedCount = unescaped.size();
        result.violations = violations.data();
        result.violationCount = violations.size();
        result.violationsOmitted = violationsOmitted;
        result.text = reinterpret_cast<const uint8_t *>(text.data());
        result.textLength = text.size();
    }
};

extern "C" {

size_t CSimdJSON_ParserRetainedBytes(const CSimdJSON_Parser *parser) {
    // simdjson keeps ~4 bytes of structural index and 5/3 bytes of string buffer per input byte.
    return (parser->json.capacity() + parser->otherJSON.capacity()) * 6 + parser->unescaped.capacity() +
           parser->probes.capacity() * sizeof(CSimdJSON_Probe) + parser->repeatIndex.capacity() * sizeof(uint64_t);
}

int CSimdJSON_PaddingIsInert(const uint8_t *bytes, size_t length) {
    uint8_t next = bytes[length];
    return next == 0 || next == ' ' || next == '\t' || next == '\n' || next == '\r';
}

CSimdJSON_Parser *CSimdJSON_ParserCreate(void) { return new (std::nothrow) CSimdJSON_Parser(); }

void CSimdJSON_ParserDestroy(CSimdJSON_Parser *parser) { delete parser; }

int CSimdJSON_CursorBegin(CSimdJSON_Parser *parser, const uint8_t *bytes, size_t length, size_t capacity,
                          size_t probes, size_t maximumViolations, int validated) {
    return parser->cursorBegin(bytes, length, capacity, probes, maximumViolations, validated != 0);
}

CSimdJSON_CursorState *CSimdJSON_CursorStateOf(CSimdJSON_Parser *parser) { return &parser->cursorState; }

uint8_t CSimdJSON_CursorRoot(CSimdJSON_Parser *parser, CSimdJSON_Standing *standing) {
    return parser->cursorRoot(standing);
}

void CSimdJSON_CursorSkip(CSimdJSON_Parser *parser) {
    // (Trusted: left unread, for the enclosing container to skip; nothing may follow a root the caller skips.)
    if (parser->trusted) { parser->standing = false; return; }
    parser->onValue([&] { parser->check(parser->current); });
}

int CSimdJSON_CursorExpect(CSimdJSON_Parser *parser, int object) {
    bool expected = false;
    parser->onValue([&] {
        expected = parser->expect(parser->current, object ? ondemand::json_type::object : ondemand::json_type::array);
    });
    parser->standing = expected;  // (still to be entered; any other value was skipped)
    return expected;
}

int64_t CSimdJSON_CursorEnter(CSimdJSON_Parser *parser, int checkNames) { return parser->cursorEnter(checkNames != 0); }

int CSimdJSON_CursorNextMember(CSimdJSON_Parser *parser, const uint8_t **name, size_t *nameLength, int64_t *nameOffset,
                               CSimdJSON_Standing *standing) {
    std::string_view read;
    bool found = parser->cursorNextMember(read, *nameOffset, standing);
    *name = reinterpret_cast<const uint8_t *>(read.data());
    *nameLength = read.size();
    return found;
}

void CSimdJSON_CursorDescribe(CSimdJSON_Parser *parser, CSimdJSON_Standing *standing) {
    if (!parser->standing) { *standing = {}; return; }
    parser->attempt([&] { parser->describe(standing); });
}

int CSimdJSON_CursorNextElement(CSimdJSON_Parser *parser, CSimdJSON_Standing *standing) {
    return parser->cursorNextElement(standing);
}

int CSimdJSON_CursorReadString(CSimdJSON_Parser *parser, const uint8_t **bytes, size_t *length) {
    std::string_view read;
    bool done = parser->cursorReadString(read);
    *bytes = reinterpret_cast<const uint8_t *>(read.data());
    *length = read.size();
    return done;
}

CSimdJSON_Scalar CSimdJSON_CursorReadScalar(CSimdJSON_Parser *parser, uint8_t accepted, uint8_t violationKind) {
    return parser->cursorReadScalar(accepted, violationKind);
}

uint32_t CSimdJSON_CursorProbeEach(CSimdJSON_Parser *parser, const char *name, size_t nameLength, uint8_t accepted,
                                   uint8_t violationKind, uint64_t seed) {
    return parser->cursorProbeEach({std::string_view(name, nameLength), accepted, violationKind, seed});
}

uint64_t CSimdJSON_CursorSpan(CSimdJSON_Parser *parser, uint64_t *offset) { return parser->cursorSpan(*offset); }

void CSimdJSON_CursorViolation(CSimdJSON_Parser *parser, uint8_t kind, uint8_t found, int64_t offset,
                               const char *lastStep, size_t lastStepLength) {
    parser->attempt([&] {
        int64_t at = offset == CSimdJSON_Parser::askSimdjson ? parser->currentOffset() : offset;
        parser->violation(kind, found, at, lastStep == nullptr ? std::string_view() : std::string_view(lastStep, lastStepLength));
    });
}

void CSimdJSON_CursorRequireEnd(CSimdJSON_Parser *parser) {
    if (parser->trusted) { return; }  // (validated: and a root left unread would read as trailing content)
    parser->attempt([&] { parser->requireEnd(); });
}

int64_t CSimdJSON_CursorEndOfLeft(CSimdJSON_Parser *parser, int64_t start) {
    if (parser->failed || start < 0) { return start; }
    return parser->endOfValueWalked(start, parser->input[start] == '{' ? '}' : ']');
}

size_t CSimdJSON_CursorProbeCount(const CSimdJSON_Parser *parser) { return parser->probes.size(); }

void CSimdJSON_CursorRepeatFrom(CSimdJSON_Parser *parser, size_t first, size_t end) {
    parser->cursorRepeatFrom(first, end);
}

int CSimdJSON_CursorIsClean(const CSimdJSON_Parser *parser) { return parser->isClean(); }

const CSimdJSON_Result *CSimdJSON_CursorFinish(CSimdJSON_Parser *parser) {
    parser->finish();
    return &parser->result;
}

int CSimdJSON_SameObjectContent(CSimdJSON_Parser *parser, const uint8_t *bytesA, size_t capacityA, size_t offsetA,
                              size_t lengthA, const uint8_t *bytesB, size_t capacityB, size_t offsetB, size_t lengthB,
                              const char *skipped, size_t skippedLength) {
    return parser->sameObjectContent(bytesA, capacityA, offsetA, lengthA, bytesB, capacityB, offsetB, lengthB,
                                   std::string_view(skipped, skippedLength));
}

CSimdJSON_NumberParts CSimdJSON_ParseNumber(const uint8_t *token, size_t length) {
    CSimdJSON_NumberParts parts{};
    std::string_view text(reinterpret_cast<const char *>(token), length);
    NumberToken number = NumberToken::parse(text, CSimdJSON_MAX_EXPONENT);
    parts.valid = number.outcome != NumberToken::syntax;
    parts.negative = number.negative;
    parts.isInteger = number.isInteger;
    parts.outOfRange = number.outcome == NumberToken::exponentOutOfRange;
    if (number.outcome == NumberToken::ok) {
        std::string_view a, b;
        parts.exponent = number.significant(a, b);
        // (An empty view may point nowhere: its offset is then the end of the other's.)
        parts.integerOffset = a.empty() ? 0 : uint32_t(a.data() - text.data());
        parts.integerLength = uint32_t(a.size());
        parts.fractionOffset = b.empty() ? parts.integerOffset + parts.integerLength : uint32_t(b.data() - text.data());
        parts.fractionLength = uint32_t(b.size());
    }
    return parts;
}

}  // extern "C"
