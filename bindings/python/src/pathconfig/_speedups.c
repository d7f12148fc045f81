/*
 * pathconfig._speedups: PathConfiguration.properties's call into the library,
 * in C. Optional: the binding works without it (pathconfig.SPEEDUPS says
 * which is in use), and it is built only where a C compiler and Python's
 * headers are present.
 *
 * Through ctypes, one lookup costs more than the library's work: argument
 * conversions, a foreign call, and the bookkeeping that makes a result lent
 * by pathconfig_lookup safe to take (pathconfig/_result.py). Here the call is
 * one C function that keeps the GIL from the lookup until it has the result
 * from the binding's cache (keyed by the address of the result's JSON text,
 * pathconfig_result_json, as pathconfig/_result.py explains) or a reference
 * of its own on it, so no Python
 * code (another lookup from a signal handler or a finaliser) can run in
 * between and replace what the thread was lent.
 *
 * It never links libpathconfig: bind() receives the addresses of the three
 * functions it calls from the library ctypes loaded, so both paths always
 * use the same library. It decides nothing the library or the binding
 * decides: an argument it does not take as is (not a str, a NUL, text that
 * is not UTF-8) is left to the binding's own checks, and a failed lookup's
 * error is read by the binding from pathconfig_last_error.
 *
 * The stable ABI of Python 3.9 (abi3): one build serves every later CPython.
 */

#define Py_LIMITED_API 0x03090000
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <string.h>

/* pathconfig_lookup, pathconfig_result_retain and pathconfig_result_json
 * (pathconfig/config.h). */
typedef const void *(*lookup_fn)(const void *cfg, const char *url_or_path, const char *method);
typedef void *(*retain_fn)(void *res);
typedef const char *(*json_fn)(const void *res);

static lookup_fn pc_lookup;
static retain_fn pc_retain;
static json_fn pc_json;

/* The UTF-8 of `text` in a new bytes object, or NULL (no error set) when
 * the fast path does not take it: not exactly a str, not encodable, or
 * holding a NUL (which C would read as its end). */
static PyObject *utf8_argument(PyObject *text) {
    if (!PyUnicode_CheckExact(text)) return NULL;
    PyObject *bytes = PyUnicode_AsUTF8String(text);
    if (bytes == NULL) {
        PyErr_Clear();
        return NULL;
    }
    char *data;
    Py_ssize_t size;
    if (PyBytes_AsStringAndSize(bytes, &data, &size) < 0 || strlen(data) != (size_t)size) {
        PyErr_Clear();
        Py_DECREF(bytes);
        return NULL;
    }
    return bytes;
}

PyDoc_STRVAR(bind_doc,
"bind(lookup, retain, json)\n--\n\n"
"The addresses of pathconfig_lookup, pathconfig_result_retain and\n"
"pathconfig_result_json in the library the binding loaded. Called once,\n"
"before lookup().");

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
    pc_lookup = (lookup_fn)addresses[0];
    pc_retain = (retain_fn)addresses[1];
    pc_json = (json_fn)addresses[2];
    Py_RETURN_NONE;
}

PyDoc_STRVAR(lookup_doc,
"lookup(config, url, method, cache)\n--\n\n"
"pathconfig_lookup(config, url, method) for the configuration at address\n"
"config (which the caller holds), url a str and method a str or None (GET).\n"
"Returns cache[text] when the address of the result's JSON text\n"
"(pathconfig_result_json) is a key of the dict cache; otherwise the\n"
"result's address as an int, with a reference taken on the\n"
"result that the caller now owns (pathconfig_result_free); 0 when the\n"
"lookup failed (pathconfig_last_error says why); None when url or method\n"
"is not one this path takes as is (the caller's own path then checks it).");

static PyObject *sp_lookup(PyObject *self, PyObject *args) {
    (void)self;
    if (pc_lookup == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "lookup: bind() was not called");
        return NULL;
    }
    if (PyTuple_Size(args) != 4) {
        PyErr_SetString(PyExc_TypeError, "lookup takes 4 arguments (config, url, method, cache)");
        return NULL;
    }
    PyObject *config = PyTuple_GetItem(args, 0), *url = PyTuple_GetItem(args, 1);
    PyObject *method = PyTuple_GetItem(args, 2), *cache = PyTuple_GetItem(args, 3);
    if (!PyDict_Check(cache)) {
        PyErr_SetString(PyExc_TypeError, "lookup: cache must be a dict");
        return NULL;
    }
    void *cfg = PyLong_AsVoidPtr(config);
    if (cfg == NULL && PyErr_Occurred()) return NULL;

    PyObject *url_bytes = utf8_argument(url);
    if (url_bytes == NULL) Py_RETURN_NONE;
    PyObject *method_bytes = NULL;
    if (method != Py_None && (method_bytes = utf8_argument(method)) == NULL) {
        Py_DECREF(url_bytes);
        Py_RETURN_NONE;
    }

    /* The GIL is held throughout. A rule's callback may run Python code
     * inside the lookup, before its result is lent; after it returns, none
     * runs on this thread, so the result lent stays lent until it is in
     * hand. */
    const void *res = pc_lookup(cfg, PyBytes_AsString(url_bytes),
                                method_bytes == NULL ? NULL : PyBytes_AsString(method_bytes));
    Py_DECREF(url_bytes);
    Py_XDECREF(method_bytes);
    if (res == NULL) return PyLong_FromLong(0);

    /* The entry of a key holds a reference on a result with that text, so
     * the text at that address is the one just lent. NULL (no memory for
     * the text) is left to the binding, which reports the last error. int
     * keys hash and compare in C. */
    const char *text = pc_json(res);
    if (text != NULL) {
        PyObject *key = PyLong_FromVoidPtr((void *)text);
        if (key == NULL) return NULL;
        PyObject *entry = PyDict_GetItemWithError(cache, key);
        Py_DECREF(key);
        if (entry != NULL) {
            Py_INCREF(entry);
            return entry;
        }
        if (PyErr_Occurred()) return NULL;
    }
    PyObject *address = PyLong_FromVoidPtr((void *)res);
    if (address == NULL) return NULL;
    pc_retain((void *)res);
    return address;
}

static PyMethodDef methods[] = {
    {"bind", sp_bind, METH_VARARGS, bind_doc},
    {"lookup", sp_lookup, METH_VARARGS, lookup_doc},
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

PyMODINIT_FUNC PyInit__speedups(void) { return PyModule_Create(&module); }
