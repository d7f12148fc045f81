/*
 * pathconfig._speedups: PathConfiguration.properties's call into the library,
 * in C. Optional: the binding works without it (pathconfig.SPEEDUPS says
 * which is in use), and it is built only where a C compiler and Python's
 * headers are present.
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
 * The stable ABI of Python 3.9 (abi3): one build serves every later CPython.
 */

#define Py_LIMITED_API 0x03090000
#define PY_SSIZE_T_CLEAN
#include <Python.h>

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

PyDoc_STRVAR(resolve_doc,
"resolve(config, url, method, answers)\n--\n\n"
"pathconfig_resolve(config, url, method, NULL) for the configuration at\n"
"address config (which the caller holds), url a str and method a str or\n"
"None (GET). Then, by the result's id (pathconfig_result_id):\n"
"answers[id] when the id is a key of the dict answers (the result is\n"
"released here); otherwise the tuple (result, id): the result's address as\n"
"an int, a reference the caller now owns (pathconfig_result_release), and\n"
"its id. 0 when the lookup failed (pathconfig_last_error says why); None\n"
"when url or method is not one this path takes as is (the caller's own\n"
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

    PyObject *url_bytes = utf8_argument(url);
    if (url_bytes == NULL) Py_RETURN_NONE;
    PyObject *method_bytes = NULL;
    if (method != Py_None && (method_bytes = utf8_argument(method)) == NULL) {
        Py_DECREF(url_bytes);
        Py_RETURN_NONE;
    }

    void *res = pc_resolve(cfg, PyBytes_AsString(url_bytes),
                           method_bytes == NULL ? NULL : PyBytes_AsString(method_bytes), NULL);
    Py_DECREF(url_bytes);
    Py_XDECREF(method_bytes);
    if (res == NULL) return PyLong_FromLong(0);

    /* int keys hash and compare in C. An id is never 0 for a result. */
    PyObject *id = PyLong_FromUnsignedLongLong((unsigned long long)pc_result_id(res));
    if (id == NULL) {
        pc_result_release(res);
        return NULL;
    }
    PyObject *answer = PyDict_GetItemWithError(answers, id); /* borrowed */
    if (answer != NULL) {
        Py_DECREF(id);
        pc_result_release(res);
        Py_INCREF(answer);
        return answer;
    }
    if (PyErr_Occurred()) {
        Py_DECREF(id);
        pc_result_release(res);
        return NULL;
    }
    PyObject *address = PyLong_FromVoidPtr(res);
    if (address == NULL) {
        Py_DECREF(id);
        pc_result_release(res);
        return NULL;
    }
    PyObject *pair = PyTuple_New(2);
    if (pair == NULL) {
        Py_DECREF(id);
        Py_DECREF(address);
        pc_result_release(res);
        return NULL;
    }
    PyTuple_SetItem(pair, 0, address); /* steals */
    PyTuple_SetItem(pair, 1, id);
    return pair;
}

static PyMethodDef methods[] = {
    {"bind", sp_bind, METH_VARARGS, bind_doc},
    {"resolve", sp_resolve, METH_VARARGS, resolve_doc},
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
