/*
 * pathconfig._speedups: PathConfiguration.properties in C (LookupBase,
 * below), and resolve(), its call into the library, which the binding's
 * Python method makes. Optional: the binding works without it
 * (pathconfig.SPEEDUPS says which is in use), and it is built only where a
 * C compiler and Python's headers are present.
 *
 * Through ctypes, one lookup is three foreign calls (pathconfig_resolve,
 * pathconfig_result_id, and pathconfig_result_release when the answer is
 * known), each costing more than the library's work. Here the three are one
 * C function: it resolves, reads the answer's id (pathconfig_result_id) and
 * looks it up in the binding's dict of answers (pathconfig/_result.py). For
 * a known id it releases the result itself and returns the Python object the
 * binding keeps for that answer, so a lookup whose answer was seen before
 * allocates nothing but the id's int.
 *
 * It never links libpathconfig: bind() receives the addresses of the three
 * functions it calls from the library ctypes loaded, so both paths always
 * use the same library. It decides nothing the library or the binding
 * decides: an argument it does not take as is (not a str, a NUL, text that
 * is not UTF-8) is left to the binding's own checks, and a failed lookup's
 * error is read by the binding from pathconfig_last_error.
 *
 * The GIL is held throughout, as re holds it for a match: a lookup takes
 * well under a microsecond at a few hundred rules, less than giving the GIL
 * up and taking it back. A rule's Python callback, run by the library inside
 * pathconfig_resolve, takes the GIL on this same thread (ctypes does), which
 * is allowed: this thread holds it.
 *
 * The rest is where a signal handler's exception would strike with nowhere
 * to go, done in C: Deferring, what ctypes calls in place of each Python
 * function the library calls back, so that it cannot strike before the
 * function starts; Owned, which gives a reference back to the library when
 * it goes, where a __del__ would be struck at its entry; and free_payload,
 * the payload free.
 *
 * The stable ABI of Python 3.9 (abi3): one build serves every later CPython.
 */

#define Py_LIMITED_API 0x03090000
#define PY_SSIZE_T_CLEAN
#include <Python.h>

/* In the stable ABI from 3.10 (PEP 652), and exported with this signature
 * by every CPython 3 before it; the 3.9 headers hide it under
 * Py_LIMITED_API. The UTF-8 of a str without a copy: an ASCII str's own
 * characters, else a copy the str keeps. */
#if Py_LIMITED_API < 0x030A0000
PyAPI_FUNC(const char *) PyUnicode_AsUTF8AndSize(PyObject *unicode, Py_ssize_t *size);
#endif

#include <stdint.h>
#include <string.h>

/* pathconfig_resolve, pathconfig_result_id and pathconfig_result_release
 * (pathconfig/config.h, pathconfig/result.h); handles as void *. */
typedef void *(*resolve_fn)(const void *cfg, const char *url_or_path, const char *method, void *err);
typedef uint64_t (*id_fn)(const void *res);
typedef void (*release_fn)(void *res);

static resolve_fn pc_resolve;
static id_fn pc_result_id;
static release_fn pc_result_release;

/* The UTF-8 of `text`, borrowed from it, or NULL (no error set) when the
 * fast path does not take it: not exactly a str, not encodable, or holding
 * a NUL (which C would read as its end). */
static const char *utf8_argument(PyObject *text) {
    if (!PyUnicode_CheckExact(text)) return NULL;
    Py_ssize_t size;
    const char *data = PyUnicode_AsUTF8AndSize(text, &size);
    if (data == NULL || strlen(data) != (size_t)size) {
        PyErr_Clear();
        return NULL;
    }
    return data;
}

PyDoc_STRVAR(bind_doc,
"bind(resolve, result_id, result_release)\n--\n\n"
"The addresses of pathconfig_resolve, pathconfig_result_id and\n"
"pathconfig_result_release in the library the binding loaded. Called once,\n"
"before resolve().");

static PyObject *sp_bind(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *objects[3];
    void *addresses[3];
    if (!PyArg_ParseTuple(args, "OOO:bind", &objects[0], &objects[1], &objects[2])) return NULL;
    for (int i = 0; i < 3; i++) {
        addresses[i] = PyLong_AsVoidPtr(objects[i]);
        if (addresses[i] == NULL) {
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "bind: a function address is 0");
            return NULL;
        }
    }
    pc_resolve = (resolve_fn)addresses[0];
    pc_result_id = (id_fn)addresses[1];
    pc_result_release = (release_fn)addresses[2];
    Py_RETURN_NONE;
}

/* What one lookup through the library came to (look_up). */
enum lookup_outcome {
    NOT_TAKEN, /* url or method is not one this path takes as is */
    FAILED,    /* the library failed: pathconfig_last_error says why */
    KNOWN,     /* *answer: a new reference to the kept Properties */
    FRESH,     /* *result and *id: an answer not kept yet, the result the caller now owns */
    RAISED,    /* a Python exception is set */
};

/* pathconfig_resolve(cfg, url, method) and, by the result's id, the
 * answer kept in the dict answers (the result is released here), or the
 * result and its id for a new one. Runs no Python code. Inlined into both
 * callers: called, it cost LookupBase.properties 40 instructions of 2,360
 * per lookup at ten rules (callgrind). */
__attribute__((always_inline)) static inline enum lookup_outcome
look_up(void *cfg, PyObject *url, PyObject *method, PyObject *answers, PyObject **answer, void **result,
        unsigned long long *id) {
    const char *url_text = utf8_argument(url);
    if (url_text == NULL) return NOT_TAKEN;
    const char *method_text = NULL;
    if (method != Py_None && (method_text = utf8_argument(method)) == NULL) return NOT_TAKEN;
    void *res = pc_resolve(cfg, url_text, method_text, NULL);
    if (res == NULL) return FAILED;

    /* int keys hash and compare in C. An id is never 0 for a result. */
    unsigned long long answer_id = (unsigned long long)pc_result_id(res);
    PyObject *key = PyLong_FromUnsignedLongLong(answer_id);
    if (key == NULL) {
        pc_result_release(res);
        return RAISED;
    }
    PyObject *known = PyDict_GetItemWithError(answers, key); /* borrowed */
    Py_DECREF(key);
    if (known != NULL) {
        pc_result_release(res);
        Py_INCREF(known);
        *answer = known;
        return KNOWN;
    }
    if (PyErr_Occurred()) {
        pc_result_release(res);
        return RAISED;
    }
    *result = res;
    *id = answer_id;
    return FRESH;
}

/* ------------------------------------------------------------------------
 * Owned(handed, release): a reference on a library object (a result, a
 * configuration) that release(address) gives back, once: by release(), or
 * when the Owned is deallocated. Deallocation runs no Python code, so no
 * signal handler can strike there: a Python __del__ struck at its entry is
 * reported as unraisable and returns, the handler's exception lost with the
 * reference (a whole configuration, with Ctrl-C). Properties and
 * PathConfiguration hold one (pathconfig/_handle.py has the ctypes twin).
 * The library's release runs with the GIL given up, as ctypes calls it.
 *
 * handed is the ctypes object a library call returned (a
 * pathconfig._ffi.Handed, which frees what it holds if it goes first): the
 * Owned takes the pointer out of it, leaving NULL there, in C, where no
 * signal handler can strike between the two, so the reference always has
 * exactly one owner.
 * ------------------------------------------------------------------------ */

typedef struct {
    PyObject_HEAD
    void *address; /* NULL once released */
    release_fn release;
} OwnedObject;

static PyTypeObject *owned_type;
static PyObject *is_finalizing; /* sys.is_finalizing */
static PyObject *addressof;     /* ctypes.addressof */

static PyObject *owned_wrap(void *address, release_fn release) {
    allocfunc alloc = (allocfunc)PyType_GetSlot(owned_type, Py_tp_alloc);
    OwnedObject *self = (OwnedObject *)alloc(owned_type, 0);
    if (self == NULL) {
        release(address);
        return NULL;
    }
    self->address = address;
    self->release = release;
    return (PyObject *)self;
}

/* Gives the reference back now, unless that was done. The address is
 * cleared under the GIL before it is given up, so it is given back once
 * however many threads ask. */
static void owned_give_back(OwnedObject *self) {
    void *address = self->address;
    if (address == NULL) return;
    self->address = NULL;
    Py_BEGIN_ALLOW_THREADS
    self->release(address);
    Py_END_ALLOW_THREADS
}

static PyObject *owned_new(PyTypeObject *type, PyObject *args, PyObject *kwargs) {
    (void)type;
    PyObject *handed, *release_object;
    if (kwargs != NULL && PyDict_Size(kwargs) != 0) {
        PyErr_SetString(PyExc_TypeError, "Owned() takes no keyword arguments");
        return NULL;
    }
    if (!PyArg_ParseTuple(args, "OO:Owned", &handed, &release_object)) return NULL;
    void *release = PyLong_AsVoidPtr(release_object);
    if (release == NULL) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "Owned: the release function's address is 0");
        return NULL;
    }
    /* Where its pointer is stored (ctypes.addressof, a C function, runs no
     * Python code), read and cleared once the Owned that takes it exists. */
    PyObject *where = PyObject_CallFunctionObjArgs(addressof, handed, NULL);
    if (where == NULL) return NULL;
    void **slot = PyLong_AsVoidPtr(where);
    Py_DECREF(where);
    if (slot == NULL) return NULL;
    OwnedObject *self = (OwnedObject *)owned_wrap(NULL, (release_fn)release);
    if (self == NULL) return NULL;
    self->address = *slot;
    *slot = NULL;
    return (PyObject *)self;
}

static PyObject *owned_release(PyObject *self, PyObject *unused) {
    (void)unused;
    owned_give_back((OwnedObject *)self);
    Py_RETURN_NONE;
}

static PyObject *owned_address(PyObject *self, void *closure) {
    (void)closure;
    return PyLong_FromVoidPtr(((OwnedObject *)self)->address);
}

/* Whether the interpreter is finalising (sys.is_finalizing, a C function:
 * calling it runs no Python code). Then nothing is given back: the process
 * is about to free all, and a release could call back into what
 * finalisation has torn down. */
static int finalizing(void) {
    PyObject *answer = is_finalizing == NULL ? NULL : PyObject_CallObject(is_finalizing, NULL);
    int yes = answer == NULL || PyObject_IsTrue(answer) != 0;
    Py_XDECREF(answer);
    PyErr_Clear();
    return yes;
}

static void owned_dealloc(PyObject *op) {
    PyTypeObject *type = Py_TYPE(op);
    if (((OwnedObject *)op)->address != NULL) {
        /* An exception may be in flight (this object dropped as it
         * unwinds): kept, and out of the way of the release's callbacks. */
        PyObject *exc_type, *value, *traceback;
        PyErr_Fetch(&exc_type, &value, &traceback);
        if (!finalizing()) owned_give_back((OwnedObject *)op);
        PyErr_Restore(exc_type, value, traceback);
    }
    ((freefunc)PyType_GetSlot(type, Py_tp_free))(op);
    Py_DECREF(type);
}

static PyMethodDef owned_methods[] = {
    {"release", owned_release, METH_NOARGS,
     "release()\n--\n\nGives the reference back now (once; later calls do nothing)."},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef owned_getset[] = {
    {"address", owned_address, NULL, "The object's address, 0 once released.", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyType_Slot owned_slots[] = {
    {Py_tp_doc, "Owned(handed, release)\n--\n\n"
                "A reference on a library object, taken from handed, the ctypes\n"
                "pointer a library call returned (left NULL), and given back by the\n"
                "C function at release: by release(), or when this object goes."},
    {Py_tp_new, owned_new},
    {Py_tp_methods, owned_methods},
    {Py_tp_getset, owned_getset},
    {Py_tp_dealloc, owned_dealloc},
    {0, NULL},
};

static PyType_Spec owned_spec = {
    "pathconfig._speedups.Owned",
    sizeof(OwnedObject),
    0,
    Py_TPFLAGS_DEFAULT,
    owned_slots,
};

PyDoc_STRVAR(resolve_doc,
"resolve(config, url, method, answers)\n--\n\n"
"pathconfig_resolve(config, url, method, NULL) for the configuration at\n"
"address config (which the caller holds), url a str and method a str or\n"
"None (GET). Then, by the result's id (pathconfig_result_id):\n"
"answers[id] when the id is a key of the dict answers (the result is\n"
"released here); otherwise the tuple (owned, id): an Owned holding the\n"
"reference on the result, for as long as the caller keeps it, and the\n"
"result's id. 0 when the lookup failed (pathconfig_last_error says why);\n"
"None when url or method is not one this path takes as is (the caller's own\n"
"path then checks it).");

static PyObject *sp_resolve(PyObject *self, PyObject *args) {
    (void)self;
    if (pc_resolve == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "resolve: bind() was not called");
        return NULL;
    }
    if (PyTuple_Size(args) != 4) {
        PyErr_SetString(PyExc_TypeError, "resolve takes 4 arguments (config, url, method, answers)");
        return NULL;
    }
    PyObject *config = PyTuple_GetItem(args, 0), *url = PyTuple_GetItem(args, 1);
    PyObject *method = PyTuple_GetItem(args, 2), *answers = PyTuple_GetItem(args, 3);
    if (!PyDict_Check(answers)) {
        PyErr_SetString(PyExc_TypeError, "resolve: answers must be a dict");
        return NULL;
    }
    void *cfg = PyLong_AsVoidPtr(config);
    if (cfg == NULL && PyErr_Occurred()) return NULL;

    PyObject *answer = NULL;
    void *res = NULL;
    unsigned long long answer_id = 0;
    switch (look_up(cfg, url, method, answers, &answer, &res, &answer_id)) {
    case NOT_TAKEN: Py_RETURN_NONE;
    case FAILED: return PyLong_FromLong(0);
    case KNOWN: return answer;
    case RAISED: return NULL;
    case FRESH: break;
    }
    PyObject *owned = owned_wrap(res, pc_result_release);
    return owned == NULL ? NULL : Py_BuildValue("(NK)", owned, answer_id);
}

/* ------------------------------------------------------------------------
 * LookupBase: PathConfiguration.properties itself, in C.
 *
 * With the extension, PathConfiguration's bases include LookupBase, whose
 * struct holds the address its lookups go to (_set_lookup_address: the
 * configuration's, or 0 once it is closed or has rules with Python
 * callbacks). properties() takes (url) and (url, method=m) with str
 * arguments it takes as they are, resolves, and returns the kept
 * Properties of the answer (the binding's dict of answers, by id), or the
 * one adopt(owned, id) makes of a new answer (owned: an Owned of its
 * result). Everything else goes to the binding's Python method,
 * _checked_properties, with the same arguments: other arguments, a closed
 * configuration, rules with Python callbacks, and a failed lookup, which
 * that method looks up again and raises as it always did.
 *
 * No Python code runs between reading the address and the library's
 * return (no callbacks: those configurations take the Python method), and
 * the GIL is held throughout, so close() on another thread cannot release
 * the handle in between: the Python method's count of calls in flight is
 * not needed here.
 * ------------------------------------------------------------------------ */

typedef struct {
    PyObject_HEAD
    void *address; /* NULL: closed, or rules with Python callbacks */
} LookupObject;

static PyObject *answers;   /* the binding's dict of Properties by answer id */
static PyObject *adopt;     /* adopt(owned, id): a new answer's Properties */
static PyObject *str_checked, *str_method;

static PyObject *checked(PyObject *self, PyObject *args, PyObject *kwargs) {
    PyObject *method = PyObject_GetAttr(self, str_checked);
    if (method == NULL) return NULL;
    PyObject *answer = PyObject_Call(method, args, kwargs);
    Py_DECREF(method);
    return answer;
}

static PyObject *lookup_properties(PyObject *self, PyObject *args, PyObject *kwargs) {
    void *cfg = ((LookupObject *)self)->address;
    if (cfg == NULL || answers == NULL || PyTuple_Size(args) != 1) return checked(self, args, kwargs);
    PyObject *method = Py_None;
    if (kwargs != NULL && PyDict_Size(kwargs) != 0) {
        if (PyDict_Size(kwargs) != 1) return checked(self, args, kwargs);
        method = PyDict_GetItemWithError(kwargs, str_method); /* borrowed */
        if (method == NULL) return PyErr_Occurred() ? NULL : checked(self, args, kwargs);
    }
    PyObject *answer = NULL;
    void *res = NULL;
    unsigned long long answer_id = 0;
    switch (look_up(cfg, PyTuple_GetItem(args, 0), method, answers, &answer, &res, &answer_id)) {
    case NOT_TAKEN:
    case FAILED: return checked(self, args, kwargs);
    case KNOWN: return answer;
    case RAISED: return NULL;
    case FRESH: break;
    }
    /* The reference on res is owned from here on: adopt keeps it in the
     * Properties it makes, and if adopt raises, it goes with it. */
    PyObject *owned = owned_wrap(res, pc_result_release);
    if (owned == NULL) return NULL;
    PyObject *made = PyObject_CallFunction(adopt, "OK", owned, answer_id);
    Py_DECREF(owned);
    return made;
}

static PyObject *lookup_set_address(PyObject *self, PyObject *address) {
    void *value = PyLong_AsVoidPtr(address);
    if (value == NULL && PyErr_Occurred()) return NULL;
    ((LookupObject *)self)->address = value;
    Py_RETURN_NONE;
}

PyDoc_STRVAR(properties_doc,
"properties(url, *, method=None)\n--\n\n"
"The merged properties of every rule matching url (an absolute URL or a\n"
"path) for a method request (None: GET): a Properties, a read-only dict\n"
"with JSON types (empty when no rule matches), its JSON text and the\n"
"typed accessors (context, presentation, ...). Lookups with the same\n"
"answer return the same object.");

static PyMethodDef lookup_methods[] = {
    {"properties", (PyCFunction)(void (*)(void))lookup_properties, METH_VARARGS | METH_KEYWORDS, properties_doc},
    {"_set_lookup_address", lookup_set_address, METH_O,
     "_set_lookup_address(address)\n--\n\nThe address properties() looks up in (0: none, the Python method then)."},
    {NULL, NULL, 0, NULL},
};

static PyType_Slot lookup_slots[] = {
    {Py_tp_doc, "PathConfiguration's base with the C extension: properties() in C."},
    {Py_tp_methods, lookup_methods},
    {0, NULL},
};

static PyType_Spec lookup_spec = {
    "pathconfig._speedups.LookupBase",
    sizeof(LookupObject),
    0,
    Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    lookup_slots,
};

PyDoc_STRVAR(bind_lookups_doc,
"bind_lookups(answers, adopt)\n--\n\n"
"The binding's dict of Properties by answer id, and adopt(owned, id),\n"
"which makes the Properties of a new answer (keeping owned, the Owned of\n"
"its result). Called once, after bind() and before any lookup of\n"
"LookupBase.properties.");

static PyObject *sp_bind_lookups(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *dict, *callable;
    if (!PyArg_ParseTuple(args, "OO:bind_lookups", &dict, &callable)) return NULL;
    if (!PyDict_Check(dict) || !PyCallable_Check(callable)) {
        PyErr_SetString(PyExc_TypeError, "bind_lookups: a dict and a callable");
        return NULL;
    }
    PyObject *old_answers = answers, *old_adopt = adopt;
    Py_INCREF(dict);
    Py_INCREF(callable);
    answers = dict;
    adopt = callable;
    Py_XDECREF(old_answers);
    Py_XDECREF(old_adopt);
    Py_RETURN_NONE;
}

/* Deferring(func, on_raise): called by ctypes in place of func, a Python
 * function the library calls back (a loader's event callback, a rule's
 * predicate or configurer, the payload free). CPython runs pending signal
 * handlers at the entry of every Python function, and the first one after
 * a long call into the library is often that callback: an exception a
 * handler raises there (Ctrl-C's KeyboardInterrupt, an alarm's) would be
 * reported by ctypes as unraisable and lost, and the call dropped (a lost
 * event, a predicate returning whatever was in the register). This runs the
 * handlers first, in C, before any Python code, and hands what is raised
 * before func returns to on_raise(exception, ran, *args): ran is False when
 * a handler raised before func was called, True when func raised. What it
 * returns is the call's (pathconfig/_callbacks.py). */
typedef struct {
    PyObject_HEAD
    PyObject *func;
    PyObject *on_raise;
} DeferringObject;

static PyObject *deferring_new(PyTypeObject *type, PyObject *args, PyObject *kwargs) {
    PyObject *func, *on_raise;
    if (kwargs != NULL && PyDict_Size(kwargs) != 0) {
        PyErr_SetString(PyExc_TypeError, "Deferring() takes no keyword arguments");
        return NULL;
    }
    if (!PyArg_ParseTuple(args, "OO:Deferring", &func, &on_raise)) return NULL;
    if (!PyCallable_Check(func) || !PyCallable_Check(on_raise)) {
        PyErr_SetString(PyExc_TypeError, "Deferring: two callables");
        return NULL;
    }
    allocfunc alloc = (allocfunc)PyType_GetSlot(type, Py_tp_alloc);
    DeferringObject *self = (DeferringObject *)alloc(type, 0);
    if (self == NULL) return NULL;
    Py_INCREF(func);
    Py_INCREF(on_raise);
    self->func = func;
    self->on_raise = on_raise;
    return (PyObject *)self;
}

static PyObject *deferring_call(PyObject *op, PyObject *args, PyObject *kwargs) {
    DeferringObject *self = (DeferringObject *)op;
    int ran = PyErr_CheckSignals() == 0;
    if (ran) {
        PyObject *result = PyObject_Call(self->func, args, kwargs);
        if (result != NULL) return result;
    }
    PyObject *type, *value, *traceback;
    PyErr_Fetch(&type, &value, &traceback);
    PyErr_NormalizeException(&type, &value, &traceback);
    if (traceback != NULL) PyException_SetTraceback(value, traceback);
    Py_XDECREF(type);
    Py_XDECREF(traceback);
    PyObject *first = Py_BuildValue("(NO)", value, ran ? Py_True : Py_False);
    if (first == NULL) return NULL;
    PyObject *all = PySequence_Concat(first, args);
    Py_DECREF(first);
    if (all == NULL) return NULL;
    PyObject *result = PyObject_Call(self->on_raise, all, kwargs);
    Py_DECREF(all);
    return result;
}

/* func's, so that ctypes' report of an exception names what was called. */
static PyObject *deferring_repr(PyObject *op) {
    return PyObject_Repr(((DeferringObject *)op)->func);
}

static int deferring_traverse(PyObject *op, visitproc visit, void *arg) {
    DeferringObject *self = (DeferringObject *)op;
    Py_VISIT(self->func);
    Py_VISIT(self->on_raise);
    Py_VISIT((PyObject *)Py_TYPE(op));
    return 0;
}

static int deferring_clear(PyObject *op) {
    DeferringObject *self = (DeferringObject *)op;
    Py_CLEAR(self->func);
    Py_CLEAR(self->on_raise);
    return 0;
}

static void deferring_dealloc(PyObject *op) {
    PyTypeObject *type = Py_TYPE(op);
    PyObject_GC_UnTrack(op);
    deferring_clear(op);
    ((freefunc)PyType_GetSlot(type, Py_tp_free))(op);
    Py_DECREF(type);
}

static PyType_Slot deferring_slots[] = {
    {Py_tp_doc, "Deferring(func, on_raise)\n--\n\n"
                "func, called by ctypes from C with pending signal handlers run first;\n"
                "what is raised before func returns goes to on_raise(exception, ran, *args)."},
    {Py_tp_new, deferring_new},
    {Py_tp_call, deferring_call},
    {Py_tp_repr, deferring_repr},
    {Py_tp_traverse, deferring_traverse},
    {Py_tp_clear, deferring_clear},
    {Py_tp_dealloc, deferring_dealloc},
    {0, NULL},
};

static PyType_Spec deferring_spec = {
    "pathconfig._speedups.Deferring",
    sizeof(DeferringObject),
    0,
    Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    deferring_slots,
};

/* ------------------------------------------------------------------------
 * free_payload: the payload free in C (pathconfig_loader_payload_free,
 * pathconfig_add_rule's free_context), for the binding's dict of the
 * objects the library holds, by key (pathconfig/_callbacks.py). The library
 * calls it when it lets go of a callback, often inside a release (an
 * Owned's, from a deallocation): it takes the GIL and drops the key, and
 * runs no Python function of the binding's, so a pending signal handler
 * runs later, in the caller's code, not here, where its exception would
 * have nowhere to go.
 * ------------------------------------------------------------------------ */

static PyObject *held; /* the binding's dict of held objects by key */

static void free_payload(void *payload) {
    if (payload == NULL) return;
    PyGILState_STATE state = PyGILState_Ensure();
    PyObject *exc_type, *value, *traceback;
    PyErr_Fetch(&exc_type, &value, &traceback);
    PyObject *key = PyLong_FromVoidPtr(payload);
    /* A key not held (never taken, or dropped already) is no error. */
    if (key == NULL || held == NULL || PyDict_DelItem(held, key) < 0) PyErr_Clear();
    Py_XDECREF(key);
    PyErr_Restore(exc_type, value, traceback);
    PyGILState_Release(state);
}

PyDoc_STRVAR(bind_payloads_doc,
"bind_payloads(held)\n--\n\n"
"The binding's dict of held objects by key; returns the address of the C\n"
"payload free that drops a key from it, to name in every registration.");

static PyObject *sp_bind_payloads(PyObject *self, PyObject *dict) {
    (void)self;
    if (!PyDict_Check(dict)) {
        PyErr_SetString(PyExc_TypeError, "bind_payloads: a dict");
        return NULL;
    }
    PyObject *old = held;
    Py_INCREF(dict);
    held = dict;
    Py_XDECREF(old);
    return PyLong_FromVoidPtr((void *)(uintptr_t)free_payload);
}

static PyMethodDef methods[] = {
    {"bind_lookups", sp_bind_lookups, METH_VARARGS, bind_lookups_doc},
    {"bind", sp_bind, METH_VARARGS, bind_doc},
    {"resolve", sp_resolve, METH_VARARGS, resolve_doc},
    {"bind_payloads", sp_bind_payloads, METH_O, bind_payloads_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT,
    "pathconfig._speedups",
    "PathConfiguration.properties's call into the library, in C (optional).",
    -1,
    methods,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__speedups(void) {
    str_checked = PyUnicode_InternFromString("_checked_properties");
    str_method = PyUnicode_InternFromString("method");
    if (str_checked == NULL || str_method == NULL) return NULL;
    PyObject *m = PyModule_Create(&module);
    if (m == NULL) return NULL;
    PyObject *sys = PyImport_ImportModule("sys");
    if (sys == NULL) goto failed;
    is_finalizing = PyObject_GetAttrString(sys, "is_finalizing");
    Py_DECREF(sys);
    if (is_finalizing == NULL) goto failed;
    PyObject *ctypes = PyImport_ImportModule("ctypes");
    if (ctypes == NULL) goto failed;
    addressof = PyObject_GetAttrString(ctypes, "addressof");
    Py_DECREF(ctypes);
    if (addressof == NULL) goto failed;
    PyType_Spec *specs[] = {&lookup_spec, &deferring_spec, &owned_spec};
    const char *names[] = {"LookupBase", "Deferring", "Owned"};
    for (int i = 0; i < 3; i++) {
        PyObject *type = PyType_FromSpec(specs[i]);
        if (type == NULL) goto failed;
        if (specs[i] == &owned_spec) {
            Py_INCREF(type);
            owned_type = (PyTypeObject *)type;
        }
        if (PyModule_AddObject(m, names[i], type) < 0) {
            Py_DECREF(type);
            goto failed;
        }
    }
    return m;
failed:
    Py_DECREF(m);
    return NULL;
}
