// The number token parser: RFC 8259's grammar, a token split into its parts.
#pragma once

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string_view>

namespace csimdjson {

/// A JSON number token split into its parts, validated against RFC 8259's grammar.
struct NumberToken {
    enum Outcome { ok, syntax, exponentOutOfRange };
    Outcome outcome = syntax;
    size_t errorIndex = 0;         // first offending byte, when outcome == syntax
    bool negative = false;
    bool isInteger = false;        // written without fraction or exponent
    std::string_view integerDigits;
    std::string_view fractionDigits;
    int64_t exponent = 0;          // as written, |exponent| <= maxExponent

    /// Whether `text` is a plain integer, `-?(0|[1-9][0-9]*)`: valid, with no exponent to check (most numbers of a
    /// request; `parse` says the same of them, at several times the cost).
    static bool isPlainInteger(std::string_view text) {
        size_t i = !text.empty() && text[0] == '-' ? 1 : 0;
        if (i >= text.size()) { return false; }
        if (text[i] == '0') { return i + 1 == text.size(); }
        for (; i < text.size(); ++i) {
            if (uint8_t(text[i] - '0') > 9) { return false; }
        }
        return true;
    }

    static NumberToken parse(std::string_view text, int64_t maxExponent) {
        NumberToken token;
        size_t i = 0, n = text.size();
        auto isDigit = [&](size_t at) { return at < n && text[at] >= '0' && text[at] <= '9'; };
        auto fail = [&](size_t at) { token.outcome = syntax; token.errorIndex = at; return token; };
        if (i < n && text[i] == '-') { token.negative = true; ++i; }
        size_t start = i;
        if (!isDigit(i)) { return fail(i); }
        if (text[i] == '0') {
            ++i;
            if (isDigit(i)) { return fail(i); }  // leading zero
        } else {
            while (isDigit(i)) { ++i; }
        }
        token.integerDigits = text.substr(start, i - start);
        token.isInteger = true;
        if (i < n && text[i] == '.') {
            token.isInteger = false;
            size_t fraction = ++i;
            if (!isDigit(i)) { return fail(i); }
            while (isDigit(i)) { ++i; }
            token.fractionDigits = text.substr(fraction, i - fraction);
        }
        if (i < n && (text[i] == 'e' || text[i] == 'E')) {
            token.isInteger = false;
            ++i;
            bool negativeExponent = false;
            if (i < n && (text[i] == '+' || text[i] == '-')) { negativeExponent = text[i] == '-'; ++i; }
            if (!isDigit(i)) { return fail(i); }
            int64_t exponent = 0;
            bool tooBig = false;
            while (isDigit(i)) {
                if (!tooBig) {
                    exponent = exponent * 10 + (text[i] - '0');
                    tooBig = exponent > maxExponent;
                }
                ++i;
            }
            if (i != n) { return fail(i); }
            if (tooBig) { token.outcome = exponentOutOfRange; return token; }
            token.exponent = negativeExponent ? -exponent : exponent;
        }
        if (i != n) { return fail(i); }
        token.outcome = ok;
        return token;
    }

    /// The value as an Int64 when it is written as an integer in range.
    bool int64Value(int64_t &out) const {
        if (!isInteger || integerDigits.size() > 19) { return false; }
        uint64_t magnitude = 0;
        for (char c : integerDigits) { magnitude = magnitude * 10 + uint64_t(c - '0'); }  // < 10^19 < 2^64
        uint64_t limit = negative ? uint64_t(INT64_MAX) + 1 : uint64_t(INT64_MAX);
        if (magnitude > limit) { return false; }
        out = negative ? int64_t(0 - magnitude) : int64_t(magnitude);
        return true;
    }

    /// The significant digits, `a` followed by `b` (no leading or trailing zeros; both empty for zero), and
    /// the power of ten of the last one: the value is ±ab × 10^result.
    int64_t significant(std::string_view &a, std::string_view &b) const {
        a = integerDigits;
        b = fractionDigits;
        while (!a.empty() && a.front() == '0') { a.remove_prefix(1); }
        if (a.empty()) { while (!b.empty() && b.front() == '0') { b.remove_prefix(1); } }
        int64_t scale = exponent - int64_t(fractionDigits.size());
        while (!b.empty() && b.back() == '0') { b.remove_suffix(1); ++scale; }
        if (b.empty()) {
            while (!a.empty() && a.back() == '0') { a.remove_suffix(1); ++scale; }
        }
        return a.empty() && b.empty() ? 0 : scale;
    }

    /// Whether both tokens (parsed `ok`) write the same number: the same sign, significant digits and scale (any
    /// two zeros are equal).
    bool sameValue(const NumberToken &other) const {
        std::string_view a, b, otherA, otherB;
        int64_t scale = significant(a, b), otherScale = other.significant(otherA, otherB);
        size_t count = a.size() + b.size();
        if (count == 0 || otherA.size() + otherB.size() == 0) { return count == otherA.size() + otherB.size(); }
        if (negative != other.negative || scale != otherScale || count != otherA.size() + otherB.size()) { return false; }
        for (size_t i = 0; i < count; ++i) {
            char digit = i < a.size() ? a[i] : b[i - a.size()];
            if (digit != (i < otherA.size() ? otherA[i] : otherB[i - otherA.size()])) { return false; }
        }
        return true;
    }
};

}  // namespace csimdjson
