// reader.h — text to S-expressions.
//
// The reader is iterative (an explicit stack of open lists), so a million
// nested parentheses are an ordinary input, not a crash. Symbols are folded to
// lower case (upper-case LISP 1.6 source runs as is); |Foo| keeps its case.
// Errors are Lisp errors naming file:line:column and what was expected.
//
// Labels for shared and cyclic structure: LIPQ style `$1:` defines a label on
// the cell that holds the next datum (or on a list, just inside its opening
// parenthesis), `$1` refers to it; Common Lisp style `#1=` / `#1#`.
#pragma once
#include "interp.h"

#include <string_view>

namespace lipq {

class Reader {
public:
    Reader(Interp& I, std::string_view src, uint32_t file, bool track_positions);
    ~Reader();
    // The next datum, or END_OF_FILE when only whitespace and comments remain.
    Value read();
    SourcePos last_pos() const { return last_pos_; }
    size_t offset() const { return pos_; }
    struct Impl;
private:
    Impl* impl_;
    size_t pos_ = 0;
    SourcePos last_pos_;
};

// Read one datum from a string (read-from-string); errors if there is none.
Value read_from_string(Interp& I, std::string_view s, size_t* end = nullptr);

} // namespace lipq
