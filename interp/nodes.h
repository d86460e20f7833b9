// nodes.h — the executable node types (internal to the compiler and evaluator).
//
// Each node type sets Node::fn to the function that runs it. The variable
// nodes have two run functions, plain and boxed; the compiler picks one when
// the variable's scope closes (see compiler.h). The run functions are defined
// in eval.cpp.
#pragma once
#include "compiler.h"

#include <string_view>
#include <vector>

namespace lipq {

// The innermost active call, linked through the C++ stack. Errors walk this
// chain to build their backtrace, so a call costs three stores, not a try block.
struct ActiveCall {
    ActiveCall* prev;
    Value* base;          // base[-1] is the function
    const SourcePos* site;
};

// Invoke the function at base[-1] on base[0..nargs) (I.sp == base + nargs).
// Returns with I.sp == base - 1.
Value invoke(Interp& I, Value* base, int nargs, const SourcePos* site);
// For compiled code (jit.cpp): call the function at base[-1] on base[0..nargs)
// as a call node would (builtins directly, the rest through invoke).
Value call_prepared(Interp& I, Value* base, int nargs, const SourcePos* site);
// The builtin funcall: (funcall f args...) invokes f on the arguments where
// they already are. Defined here so that compiled code can recognise it by
// its address and enter a compiled closure directly (jit.cpp).
Value funcall_builtin(Interp& I, Value* a, int n);
// A body run in the frame at base returned TAILCALL: run the tail call (and
// any it makes) in that frame, as the call loop does.
Value finish_tail_call(Interp& I, Value* base);

struct ConstNode : Node {
    Value v;
    explicit ConstNode(Value x);
};

struct LocalRef : Node {
    int slot;
    explicit LocalRef(int s);
    static Value plain(Node*, Frame&);
    static Value boxed(Node*, Frame&);
};

struct CapRef : Node {
    int idx;
    explicit CapRef(int i);
    static Value plain(Node*, Frame&);
    static Value boxed(Node*, Frame&);
};

struct GlobalRef : Node {
    Symbol* sym;
    explicit GlobalRef(Symbol* s);
};

struct LocalSet : Node {
    int slot;
    Node* val;
    LocalSet(int s, Node* v);
    static Value plain(Node*, Frame&);
    static Value boxed(Node*, Frame&);
};

struct CapSet : Node {   // always boxed: a captured variable that is assigned lives in a Box
    int idx;
    Node* val;
    CapSet(int i, Node* v);
};

struct GlobalSet : Node {
    Symbol* sym;
    Node* val;
    GlobalSet(Symbol* s, Node* v);
};

// Initialise a new local (let, prog, do). val null: nil.
struct Bind : Node {
    int slot;
    Node* val;
    Bind(int s, Node* v);
    static Value plain(Node*, Frame&);
    static Value boxed(Node*, Frame&);
};

// Dynamically bind a special variable to the value in a slot; undone by the
// enclosing DynamicExtent.
struct BindSpecial : Node {
    Symbol* sym;
    int slot;
    BindSpecial(Symbol* s, int sl);
};

struct DynamicExtent : Node {
    std::vector<Node*> binds;
    Node* body;
    DynamicExtent(std::vector<Node*> b, Node* body);
};

struct IfNode : Node {
    Node *test, *then, *els;
    IfNode(Node* t, Node* a, Node* b);
};

struct SeqNode : Node {          // progn in expression position
    std::vector<Node*> body;
    Node* part[4] = {};          // two to four parts (expression position): unrolled
    bool statements;             // statement position: a SIGNAL from a part passes up
    explicit SeqNode(std::vector<Node*> b, bool statements);
};

struct AndOrNode : Node {
    std::vector<Node*> parts;
    Node *a = nullptr, *b = nullptr;   // two parts: unrolled
    bool is_and;
    AndOrNode(std::vector<Node*> p, bool is_and);
};

struct CallGlobal : Node {
    Symbol* sym;
    std::vector<Node*> args;
    Value forms;                 // the argument forms, for FEXPRs (DF)
    SourcePos pos;
    bool tail;                   // returns TAILCALL for the enclosing call loop
    CallGlobal(Symbol* s, std::vector<Node*> a, Value f, SourcePos p, bool tail);
};

// A call of a global function with at most six arguments (tail or not):
// the argument nodes sit in the node itself and the loop is unrolled.
constexpr size_t CALL_UNROLLED = 6;
struct CallGlobalN : CallGlobal {
    Node* arg[CALL_UNROLLED] = {};
    CallGlobalN(Symbol* s, std::vector<Node*> a, Value f, SourcePos p, bool tail);
};

struct CallExpr : Node {
    Node* fn;
    std::vector<Node*> args;
    Value forms;
    SourcePos pos;
    CallExpr(Node* f, std::vector<Node*> a, Value forms, SourcePos p, bool tail);
};

// Inline builtins (car, +, < ...): the fast path runs when sym still holds
// the builtin `expect`; otherwise (or on a type the fast path does not
// handle) the call goes the generic way, so redefining car still works.
// Operands that are a plain local variable or a fixnum constant are read
// directly instead of through their node (see prims.cpp); if such a local is
// later found to live in a Box, the compiler switches the node to `general`.
enum OperandKind : uint8_t { OperandAny = 0, OperandLocal = 1, OperandConst = 2 };

struct PrimNode;
using PrimTest = Node::Test;

// Which builtin a PrimNode inlines (synonyms share one: not/null, plus/+ ...);
// the JIT (jit.cpp) translates by it.
enum class PrimOp : uint8_t { Car, Cdr, Cadr, Cddr, Null, Consp, Atom, Add1, Sub1, Zerop, Cons, Eq, Eql,
                              Add, Sub, Mul, Lt, Gt, Le, Ge, NumEq, NumNe, Aref };

struct PrimNode : Node {
    Symbol* sym;
    Value expect;
    Node* a;
    Node* b;                     // null for one-argument primitives
    int slot_a = 0, slot_b = 0;  // OperandLocal
    Value k_a = NIL, k_b = NIL;  // OperandConst
    SourcePos pos;
    PrimOp op = PrimOp::Car;
    Node::Fn general;            // every operand through its node
    PrimTest test_general = nullptr;   // Node::test when every operand goes through its node
    PrimNode(Node::Fn f, Symbol* s, Value e, Node* x, Node* y, SourcePos p);
};

struct PrimVariants {
    Node::Fn run = nullptr, general = nullptr;
    PrimTest test = nullptr, test_general = nullptr;
    OperandKind ka = OperandAny, kb = OperandAny;   // what `run` expects (may be less specific than asked)
    PrimOp op = PrimOp::Car;
};
// The fast path for the builtin `name` with nargs operands of the given
// kinds; false if the builtin has none.
bool select_prim(std::string_view name, int nargs, OperandKind ka, OperandKind kb, PrimVariants* out);
// The operation on operands already evaluated (y: nil for one operand), for
// compiled code: the fast paths of * and aref, and for everything the builtin
// itself through invoke, as the nodes do when their fast path does not apply.
Value prim_on_values(Interp& I, PrimNode* m, Value x, Value y);

// (if <node with a test> then else) without materialising t/nil.
struct IfTestNode : Node {
    Node* cond;
    Node *then, *els;
    IfTestNode(Node* t, Node* a, Node* b);
};

struct CaptureSource { bool from_local; int index; };

struct MakeClosure : Node {
    Proto* proto;
    std::vector<CaptureSource> caps;
    MakeClosure(Proto* p, std::vector<CaptureSource> c);
};

struct ProgNode : Node {
    std::vector<Node*> inits;    // Bind nodes for the variables
    std::vector<Node*> stmts;    // labels are removed; go targets are indices here
    bool is_stmt = false;        // compiled in statement position of an outer block
    ProgNode();
    static Value plain(Node*, Frame&);
    static Value catching(Node*, Frame&);   // some go/return reaches it by exception
};

struct GoNode : Node {
    ProgNode* target;
    int label;
    bool signal;                 // SIGNAL through statements (else a C++ exception)
    GoNode(ProgNode* t, int l, bool signal);
};

struct ReturnNode : Node {
    ProgNode* target;
    Node* val;
    bool signal;
    ReturnNode(ProgNode* t, Node* v, bool signal);
};

struct WhileNode : Node {
    Node* test;
    Node* body;
    WhileNode(Node* t, Node* b);
};

struct CatchNode : Node {
    Node* tag;
    Node* body;
    CatchNode(Node* t, Node* b);
};

struct UnwindProtectNode : Node {
    Node* body;
    Node* cleanup;
    UnwindProtectNode(Node* b, Node* c);
};

struct ErrsetNode : Node {
    Node* form;
    Node* flag;                  // null: print the message (LISP 1.6 default)
    ErrsetNode(Node* f, Node* fl);
};

// Destructuring (destructuring-bind, defmacro lambda lists): pop the car of
// the list in slot `slot`, erroring if there is none.
struct PopNode : Node {
    int slot;
    Node* deflt;                 // optional element: the default when missing
    bool optional;
    PopNode(int s, bool opt, Node* d);
};

struct EndCheckNode : Node {     // the list in slot must now be empty
    int slot;
    explicit EndCheckNode(int s);
};

// (de name ...) and friends: set the global, name the proto, return the name.
struct DefineNode : Node {
    Symbol* sym;
    Node* val;
    int kind;                    // 0 function, 1 macro (whole form), 2 macro (args)
    DefineNode(Symbol* s, Node* v, int k);
};


} // namespace lipq
