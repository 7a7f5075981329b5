/*
 * CSimdJSON — a plain C view of simdjson On-Demand walks over JSON texts. It knows JSON and nothing else.
 *
 * A cursor (CSimdJSON_Cursor*) walks a text once, in document order, as its caller steers it: into objects and
 * arrays, member by member and element by element, reading strings and scalars, probing the objects of an array
 * (one record each: where its text lies and the scalar of the member the caller names), and recording the
 * violations the caller finds at the path where the cursor stands. Every value is validated (skipped values
 * too), so syntax errors anywhere are found before the caller's violations are reported. Records and violations
 * live in flat arrays owned by a parser handle. The same cursor reads any JSON text value by value
 * (CSimdJSON_CursorReadString and the descriptions of CSimdJSON_Standing), for the caller to decode (or
 * canonicalise, or compare) what it needs as it goes, holding no table of values.
 *
 * Everything a result points to stays valid until the next parse on the same handle or until the handle is
 * destroyed (CSimdJSON_ParserDestroy). A handle is used by one thread at a time.
 */
#ifndef CSIMDJSON_H
#define CSIMDJSON_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Bytes that must be readable (any value) after the last input byte: `capacity >= length + this`. */
#define CSimdJSON_PADDING 64
/** Deepest nesting of arrays and objects accepted; the document's own object or array is level 1. */
#define CSimdJSON_MAX_DEPTH 128
/** Largest magnitude of a number's written exponent (`1e1000000000` is accepted, `1e1000000001` is not). */
#define CSimdJSON_MAX_EXPONENT 1000000000LL

/** CSimdJSON_Result.status */
enum {
    CSimdJSON_StatusOK = 0,          /* parsed; the document may still carry violations */
    CSimdJSON_StatusEmpty = 1,       /* no JSON value: empty or whitespace only */
    CSimdJSON_StatusSyntax = 2,      /* not JSON: see syntax and errorOffset */
    CSimdJSON_StatusInvalidUTF8 = 3, /* errorOffset is -1: the caller locates the first bad byte */
    CSimdJSON_StatusTooDeep = 4,     /* errorOffset: the bracket that opens level CSimdJSON_MAX_DEPTH + 1 */
    CSimdJSON_StatusTooLarge = 5,    /* longer than simdjson accepts (4 GiB) */
    CSimdJSON_StatusOutOfMemory = 6
};

/** CSimdJSON_Result.syntax, when status is CSimdJSON_StatusSyntax. */
enum {
    CSimdJSON_SyntaxObject = 1,         /* bad object punctuation (member name, ':', ',' or '}') */
    CSimdJSON_SyntaxArray = 2,          /* bad array punctuation (',' or ']') */
    CSimdJSON_SyntaxValue = 3,          /* a value cannot start here */
    CSimdJSON_SyntaxLiteral = 4,        /* misspelt true / false / null */
    CSimdJSON_SyntaxNumber = 5,         /* errorOffset is the first offending byte of the number */
    CSimdJSON_SyntaxString = 6,         /* bad escape or lone surrogate; errorOffset is the opening quote */
    CSimdJSON_SyntaxUnclosedString = 7, /* errorOffset is -1: the caller locates the string */
    CSimdJSON_SyntaxControlCharacter = 8, /* unescaped U+0000..U+001F in a string; errorOffset is -1 */
    CSimdJSON_SyntaxTrailing = 9,       /* content after the document */
    CSimdJSON_SyntaxIncomplete = 10     /* the document ends inside an array or object */
};

/** CSimdJSON_Probe.memberKind and CSimdJSON_Scalar.kind */
enum {
    CSimdJSON_ScalarNone = 0,    /* none read: missing, or of a kind not accepted */
    CSimdJSON_ScalarString = 1,  /* packed place: unescaped UTF-8 in the result's unescaped bytes, or the input's */
    CSimdJSON_ScalarInteger = 2  /* the value (two's complement) */
};

/** The kinds a scalar read may accept (a bit mask). */
enum {
    CSimdJSON_AcceptString = 1,
    CSimdJSON_AcceptInteger = 2 /* written without fraction or exponent, and within Int64 */
};

/**
 * CSimdJSON_Violation.kind: the violations the walks find themselves. A cursor's caller records kinds of its own
 * too (CSimdJSON_CursorViolation): codes from CSimdJSON_ViolationCallerFirst up are never the walks'.
 */
enum {
    CSimdJSON_ViolationExpectedObject = 1,
    CSimdJSON_ViolationExpectedArray = 2,
    CSimdJSON_ViolationMissingMember = 4,     /* the path names the missing member */
    CSimdJSON_ViolationDuplicateMember = 6,
    CSimdJSON_ViolationExponentRange = 8,
    CSimdJSON_ViolationCallerFirst = 16
};

/** What was found instead (CSimdJSON_Violation.found). */
enum {
    CSimdJSON_FoundNothing = 0,
    CSimdJSON_FoundObject = 1,
    CSimdJSON_FoundArray = 2,
    CSimdJSON_FoundString = 3,
    CSimdJSON_FoundNumber = 4,           /* an integer, where it is not expected */
    CSimdJSON_FoundFractionalNumber = 5, /* a number written with a fraction or an exponent */
    CSimdJSON_FoundIntegerOutOfRange = 6,
    CSimdJSON_FoundBoolean = 7,
    CSimdJSON_FoundNull = 8
};

/**
 * An object probed by a cursor (CSimdJSON_CursorProbeEach): where its text lies, and the scalar of the member the
 * probe names (32 bytes: a text of many small objects holds one per object; inputs are at most 4 GiB, simdjson's
 * limit, so 32-bit offsets reach all of them).
 */
typedef struct CSimdJSON_Probe {
    /**
     * The member's scalar: for memberKind CSimdJSON_ScalarInteger its value (two's complement); for
     * CSimdJSON_ScalarString where its UTF-8 bytes lie, the offset in the low 32 bits and the length in the high
     * 32 bits, in the input when memberInInput is set (written without escapes), else in the result's unescaped
     * bytes.
     */
    uint64_t member;
    /** The object's raw JSON text in the input, from its '{' to its '}'. */
    uint32_t textOffset;
    uint32_t textLength;
    /** 1 + the index of an earlier probe with the very same text (CSimdJSON_CursorRepeatFrom), or 0. */
    uint32_t repeatOf;
    /**
     * A hash of the member's scalar with the probe's seed (of an integer's value, of a string's unescaped bytes;
     * 0 for none): equal scalars have equal hashes. MurmurHash3's mixing: inputs crafted to collide whatever the
     * seed exist, so a table keyed by it must bound its probes.
     */
    uint32_t memberHash;
    /** The walk's own: the nesting depth of the object, and whether its walk found no violation. */
    uint16_t depth;
    uint8_t clean;
    uint8_t memberKind;
    uint8_t memberInInput;
} CSimdJSON_Probe;

/**
 * The value a cursor stands on: its kind (CSimdJSON_Found*: object, array, string, number, boolean or null),
 * where its text starts, a scalar's text length (a string's with its quotes; 0 for a container), and its place:
 * how many values and member names the walk met before it, in document order (a container counts before what it
 * holds), the scale of CSimdJSON_Violation.valueIndex.
 */
typedef struct CSimdJSON_Standing {
    int64_t offset;
    uint64_t length;
    uint64_t place;
    uint8_t kind;
} CSimdJSON_Standing;

/** A scalar a cursor read (CSimdJSON_CursorReadScalar): packed as CSimdJSON_Probe.member is. */
typedef struct CSimdJSON_Scalar {
    uint64_t packed;
    uint8_t kind;
    uint8_t inInput;
} CSimdJSON_Scalar;

/**
 * A valid-JSON value that breaks a rule of the walk or of its caller's schema. Its path is in `text`: per step,
 * 'k', a 4-byte length and a member name's UTF-8 bytes, or 'i' and an 8-byte array index (integers
 * little-endian).
 */
typedef struct CSimdJSON_Violation {
    int64_t byteOffset; /* -1 when there is no single place (a missing member) */
    uint64_t pathOffset;
    uint32_t pathLength;
    uint8_t kind;
    uint8_t found;
    /** Its place in the walk: how many values and member names the walk had met (CSimdJSON_Standing.place). */
    uint64_t valueIndex;
} CSimdJSON_Violation;

typedef struct CSimdJSON_Result {
    uint32_t status;
    uint32_t syntax;
    int64_t errorOffset;

    const CSimdJSON_Probe *probes;
    size_t probeCount;
    /** The unescaped bytes of the strings read as scalars that were written with escapes. */
    const uint8_t *unescaped;
    size_t unescapedCount;

    const CSimdJSON_Violation *violations;
    size_t violationCount;
    size_t violationsOmitted;
    const uint8_t *text;
    size_t textLength;

} CSimdJSON_Result;

/** A number token exactly as written: ±digits × 10^exponent (CSimdJSON_ParseNumber). */
typedef struct CSimdJSON_NumberParts {
    /** The power of ten of the last significant digit. */
    int64_t exponent;
    /**
     * The significant digits (no leading or trailing zeros; none for zero): those of the integer part, then
     * those of the fraction, each a range of the token.
     */
    uint32_t integerOffset;
    uint32_t integerLength;
    uint32_t fractionOffset;
    uint32_t fractionLength;
    uint8_t negative;
    /** Written without fraction or exponent. */
    uint8_t isInteger;
    /** Its exponent is beyond CSimdJSON_MAX_EXPONENT (the digits are then empty). */
    uint8_t outOfRange;
    /** The token is a JSON number. */
    uint8_t valid;
} CSimdJSON_NumberParts;

typedef struct CSimdJSON_Parser CSimdJSON_Parser;

/** Bytes the handle keeps allocated between parses (for its owner to decide whether to keep it). */
size_t CSimdJSON_ParserRetainedBytes(const CSimdJSON_Parser *parser);

/** Whether the byte just past `bytes[0 ..< length]` (the first padding byte, which must be readable) is NUL or
 * JSON whitespace. simdjson's On-Demand iterator reads that byte as the token after the last one when a document
 * ends early: a stray ':' or '}' there would be taken as part of the document. */
int CSimdJSON_PaddingIsInert(const uint8_t *bytes, size_t length);

/** A new parser handle; NULL when memory is exhausted. A handle is used by one thread at a time. */
CSimdJSON_Parser *CSimdJSON_ParserCreate(void);
/** Frees a handle and everything it holds. */
void CSimdJSON_ParserDestroy(CSimdJSON_Parser *parser);

/*
 * The cursor: a walk over `bytes[0 ..< length]` that the caller steers, one call per step, standing on one value
 * at a time (the document's, then a member's or an element's). A value the caller moves past without reading,
 * skipping or entering it is validated then, so every value is (but in a walk of validated text, see
 * CSimdJSON_CursorBegin, which checks nothing it has not to read). A step that reads the value does nothing when
 * the cursor stands on none (before the root, after the value was read, after the walk). A fatal error (syntax,
 * UTF-8, depth, memory) ends the walk: from then on every step does nothing (the moves answer as at an end, 0;
 * CSimdJSON_CursorEnter -1; CSimdJSON_CursorProbeCount still counts records), and CSimdJSON_CursorFinish reports the status.
 * Nothing else may use the handle between CSimdJSON_CursorBegin and CSimdJSON_CursorFinish.
 */

/**
 * Starts a walk (stage 1: the structure of the whole input); `capacity >= length + CSimdJSON_PADDING` bytes must
 * be readable. A large input's probe records are reserved at once for `probes` (the most its caller's rules let
 * it hold without a violation: no record is kept after the first violation). The walk records at most
 * `maximumViolations` violations and only counts later ones. With
 * `validated` nonzero, the text is one an earlier walk validated: values moved past or skipped are not checked
 * again (no violation is recorded but a caller's; what the caller reads is read as usual). Returns 0 when the
 * walk ended at once (an empty input, or a fatal error).
 */
int CSimdJSON_CursorBegin(CSimdJSON_Parser *parser, const uint8_t *bytes, size_t length, size_t capacity,
                          size_t probes, size_t maximumViolations, int validated);
/**
 * What a caller's cursor keeps of a walk, held by the handle (a walk allocates nothing for it): the description
 * of the value it stands on (its `standing`), and two flags of the caller's own (whether the document's value is
 * an object or an array; whether the caller ended the walk), which the handle never reads or writes.
 */
typedef struct CSimdJSON_CursorState {
    CSimdJSON_Standing standing;
    uint8_t rootIsContainer;
    uint8_t over;
} CSimdJSON_CursorState;

/** The handle's CSimdJSON_CursorState. */
CSimdJSON_CursorState *CSimdJSON_CursorStateOf(CSimdJSON_Parser *parser);
/**
 * Stands on the document's value and returns its kind (CSimdJSON_Found*), described in *standing unless it is
 * NULL. A document that is a scalar is validated to its end at once (the walk is then over: only its kind is
 * described); after an object or an array, call CSimdJSON_CursorRequireEnd.
 */
uint8_t CSimdJSON_CursorRoot(CSimdJSON_Parser *parser, CSimdJSON_Standing *standing);
/** Validates the value the cursor stands on and moves past it (leaves it for simdjson to skip, unchecked, in a
 * walk of validated text). */
void CSimdJSON_CursorSkip(CSimdJSON_Parser *parser);
/**
 * Whether the value is an object (`object` nonzero) or an array; if not, records CSimdJSON_ViolationExpectedObject
 * or ...Array (what was found, where) and skips it.
 */
int CSimdJSON_CursorExpect(CSimdJSON_Parser *parser, int object);
/**
 * Enters the object or array the cursor stands on (it must be one); returns the offset of its bracket. Then
 * CSimdJSON_CursorNextMember or ...NextElement stand on its children, one per call. With `checkNames` nonzero, a
 * member name the object gives twice is recorded as a violation (CSimdJSON_ViolationDuplicateMember) when the
 * object ends; without, the caller checks the names it cares about.
 */
int64_t CSimdJSON_CursorEnter(CSimdJSON_Parser *parser, int checkNames);
/**
 * Stands on the next member of the object entered last: its unescaped name (valid until the walk ends) and the
 * offset of the name's opening quote; the member's name ends the path. Its value is described in *standing unless
 * it is NULL. Returns 0 at the object's end (it is then left, and the cursor stands past it).
 */
int CSimdJSON_CursorNextMember(CSimdJSON_Parser *parser, const uint8_t **name, size_t *nameLength, int64_t *nameOffset,
                               CSimdJSON_Standing *standing);
/** Describes the value the cursor stands on in *standing (all zero when it stands on none). */
void CSimdJSON_CursorDescribe(CSimdJSON_Parser *parser, CSimdJSON_Standing *standing);
/**
 * Stands on the next element of the array entered last (its index ends the path), described in *standing unless
 * it is NULL; 0 at the array's end.
 */
int CSimdJSON_CursorNextElement(CSimdJSON_Parser *parser, CSimdJSON_Standing *standing);
/**
 * Reads the string the cursor stands on: its unescaped UTF-8 bytes (valid until the walk ends). Returns 0 when the
 * cursor stands on nothing (a value of another kind is skipped, and reads as empty).
 */
int CSimdJSON_CursorReadString(CSimdJSON_Parser *parser, const uint8_t **bytes, size_t *length);
/**
 * Reads the value as a scalar of the kinds `accepted` holds (CSimdJSON_Accept*); a value of any other kind is
 * recorded as a violation of kind `violationKind` (the caller's; what was found: CSimdJSON_FoundFractionalNumber
 * and ...IntegerOutOfRange tell numbers apart) and read as CSimdJSON_ScalarNone.
 */
CSimdJSON_Scalar CSimdJSON_CursorReadScalar(CSimdJSON_Parser *parser, uint8_t accepted, uint8_t violationKind);
/**
 * Reads the value as an array of objects and probes each one: where its text lies and the scalar of its member
 * `name`, read as CSimdJSON_CursorReadScalar reads it, and its hash with `seed`, are recorded (a CSimdJSON_Probe;
 * a second member of that name, a missing one and any element that is not an object are violations). Returns how
 * many records the array added.
 */
uint32_t CSimdJSON_CursorProbeEach(CSimdJSON_Parser *parser, const char *name, size_t nameLength, uint8_t accepted,
                                   uint8_t violationKind, uint64_t seed);
/** Validates the value and returns where its text lies (the offset in *offset, the length returned). */
uint64_t CSimdJSON_CursorSpan(CSimdJSON_Parser *parser, uint64_t *offset);
/**
 * Records a violation of the caller's schema at the path where the cursor stands (plus `lastStep`, a member
 * name, when not NULL): of kind `kind`, having found `found`, at byte `offset` (-1: no single place; -2: where
 * the cursor stands).
 */
void CSimdJSON_CursorViolation(CSimdJSON_Parser *parser, uint8_t kind, uint8_t found, int64_t offset,
                               const char *lastStep, size_t lastStepLength);
/** Checks that nothing but whitespace follows the document (the walk of the document's value is over); nothing
 * in a walk of validated text. */
void CSimdJSON_CursorRequireEnd(CSimdJSON_Parser *parser);
/** The end of the object or array that starts at `start` and was just left (the offset after its bracket). */
int64_t CSimdJSON_CursorEndOfLeft(CSimdJSON_Parser *parser, int64_t start);

/** How many probe records the walk has kept. */
size_t CSimdJSON_CursorProbeCount(const CSimdJSON_Parser *parser);
/**
 * From now on, an object probed whose bytes repeat those of a clean probe among records `first ..< end` (probed at
 * the same depth) is recorded as that one again (CSimdJSON_Probe.repeatOf) without being read again.
 */
void CSimdJSON_CursorRepeatFrom(CSimdJSON_Parser *parser, size_t first, size_t end);
/** Whether the walk has found no violation yet (probe records are kept only until the first one). */
int CSimdJSON_CursorIsClean(const CSimdJSON_Parser *parser);

/**
 * Ends the walk and frees a large input's structural index. Never returns NULL. The result belongs to the handle.
 */
const CSimdJSON_Result *CSimdJSON_CursorFinish(CSimdJSON_Parser *parser);

/**
 * Compares the contents (every member but the one named `skipped`) of two object texts that a walk validated, each
 * `bytes[offset ..< offset + length]` with `capacity >= offset + length + CSimdJSON_PADDING` readable bytes,
 * walking both in the order written: 1 when equal, 0 when different, -1 when it cannot tell (members written in
 * another order, or memory exhausted): compare their canonical encodings then. Equality is deep: numbers by exact
 * decimal value, strings by their unescaped bytes. Invalidates what the handle's last walk returned.
 */
int CSimdJSON_SameObjectContent(CSimdJSON_Parser *parser, const uint8_t *bytesA, size_t capacityA, size_t offsetA,
                              size_t lengthA, const uint8_t *bytesB, size_t capacityB, size_t offsetB, size_t lengthB,
                              const char *skipped, size_t skippedLength);

/** The parts of the number token `token[0 ..< length]` (trailing whitespace none; `valid` is 0 when it is not a
 * number: a walk moving past it then stops with the syntax error). */
CSimdJSON_NumberParts CSimdJSON_ParseNumber(const uint8_t *token, size_t length);

#ifdef __cplusplus
}
#endif

#endif /* CSIMDJSON_H */
