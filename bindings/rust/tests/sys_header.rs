//! `src/sys.rs` against `include/pathconfig.h` (the umbrella and the parts it
//! includes): every constant, the error struct's fields and every prototype,
//! types translated C -> Rust. The role git2-rs gives `systest` (ctest),
//! without a dependency.

mod support;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

fn read_path(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn read(rel: &str) -> String {
    read_path(&support::repo_root().join(rel))
}

/// `include/pathconfig.h` with each `#include "..."` line replaced by the file
/// it names (relative to the including file, as the C compiler resolves it),
/// recursively, each file once as its include guard would have it: the whole
/// C API as one text. `#include <...>` lines (the C library's) stay.
fn header() -> String {
    fn expand(path: &Path, seen: &mut BTreeSet<PathBuf>, out: &mut String) {
        let path = path.canonicalize().unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        if !seen.insert(path.clone()) {
            return;
        }
        for line in read_path(&path).lines() {
            let quoted = line
                .trim()
                .strip_prefix("#include")
                .map(str::trim)
                .and_then(|rest| rest.strip_prefix('"').and_then(|rest| rest.strip_suffix('"')));
            match quoted {
                Some(name) => expand(&path.parent().unwrap().join(name), seen, out),
                None => {
                    out.push_str(line);
                    out.push('\n');
                }
            }
        }
    }
    let mut seen = BTreeSet::new();
    let mut out = String::new();
    expand(&support::repo_root().join("include/pathconfig.h"), &mut seen, &mut out);
    assert!(seen.len() > 1, "include/pathconfig.h includes no part");
    out
}

/// The header without comments and preprocessor lines other than `#define`.
fn header_code(header: &str) -> String {
    let mut out = String::new();
    let mut rest = header;
    while let Some(start) = rest.find("/*") {
        out.push_str(&rest[..start]);
        let end = rest[start..].find("*/").expect("unterminated comment") + start + 2;
        rest = &rest[end..];
    }
    out.push_str(rest);
    out.lines().map(|l| l.split("//").next().unwrap()).collect::<Vec<_>>().join("\n")
}

/// `#define PATHCONFIG_NAME value` (object-like, with a value).
fn header_constants(code: &str) -> BTreeMap<String, String> {
    code.lines()
        .filter_map(|l| l.trim().strip_prefix("#define "))
        .filter_map(|l| {
            let mut parts = l.split_whitespace();
            let name = parts.next()?;
            let value = parts.next()?;
            (name.starts_with("PATHCONFIG_") && name != "PATHCONFIG_API").then(|| (name.to_string(), value.to_string()))
        })
        .collect()
}

/// C type text -> the Rust type sys.rs must use.
fn rust_type(c: &str) -> String {
    let spaced = c.replace('*', " * ");
    let tokens: Vec<&str> = spaced.split_whitespace().collect();
    let stars = tokens.iter().position(|t| *t == "*").unwrap_or(tokens.len());
    let base: Vec<&str> = tokens[..stars].iter().copied().filter(|t| *t != "const" && *t != "struct").collect();
    assert_eq!(base.len(), 1, "unexpected C type {c:?}");
    let mut ty = match base[0] {
        "char" => "c_char",
        "int" => "c_int",
        "double" => "c_double",
        "size_t" => "usize",
        "int64_t" => "i64",
        "uint64_t" => "u64",
        "void" => "c_void",
        other => other, // pathconfig, pathconfig_result, pathconfig_error
    }
    .to_string();
    let mut pointee_const = tokens[..stars].contains(&"const");
    let mut i = stars;
    while i < tokens.len() {
        assert_eq!(tokens[i], "*", "unexpected C type {c:?}");
        ty = format!("*{} {ty}", if pointee_const { "const" } else { "mut" });
        pointee_const = tokens.get(i + 1) == Some(&"const");
        i += if pointee_const { 2 } else { 1 };
    }
    if ty == "c_void" {
        "()".to_string()
    } else {
        ty
    }
}

/// Splits `<type> <name>` (pointer stars may stick to the name).
fn split_decl(decl: &str) -> (String, String) {
    let decl = decl.trim();
    let at = decl.rfind(|c: char| !(c.is_alphanumeric() || c == '_')).map_or(0, |i| i + 1);
    (decl[..at].trim().to_string(), decl[at..].to_string())
}

/// A parameter list split at its top-level commas (not those of a function
/// pointer's own parameters).
fn split_params(params: &str) -> Vec<&str> {
    let (mut depth, mut start, mut out) = (0, 0, Vec::new());
    for (i, c) in params.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            ',' if depth == 0 => {
                out.push(params[start..i].trim());
                start = i + 1;
            }
            _ => {}
        }
    }
    out.push(params[start..].trim());
    out
}

/// `RET (*NAME)(PARAMS)` (a typedef's text or a parameter) -> (NAME, the Rust
/// type: `Option<unsafe extern "C" fn(name: type, ...) -> ret>`, `None` being NULL).
fn function_pointer(decl: &str) -> (String, String) {
    let (ret, rest) = decl.split_once("(*").expect("a function pointer");
    let (name, params) = rest.split_once(')').unwrap();
    let params = params.trim().strip_prefix('(').and_then(|p| p.strip_suffix(')')).expect("parameters");
    let params: Vec<String> = split_params(params)
        .iter()
        .map(|p| {
            let (ty, name) = split_decl(p);
            format!("{name}: {}", rust_type(&ty))
        })
        .collect();
    let ret = rust_type(ret.trim());
    let ret = if ret == "()" { String::new() } else { format!(" -> {ret}") };
    (name.trim().to_string(), format!("Option<unsafe extern \"C\" fn({}){ret}>", params.join(", ")))
}

/// A prototype's parameter (`const char *key`, `void (*free_context)(void *context)`) -> its Rust type.
fn param_type(param: &str) -> String {
    if param.contains("(*") {
        function_pointer(param).1
    } else {
        rust_type(&split_decl(param).0)
    }
}

/// name -> (parameter types, return type), in Rust terms.
type Prototypes = BTreeMap<String, (Vec<String>, String)>;

fn header_prototypes(code: &str) -> Prototypes {
    let code: String = code.lines().filter(|l| !l.trim_start().starts_with('#')).collect::<Vec<_>>().join(" ");
    let mut out = Prototypes::new();
    for chunk in code.split("PATHCONFIG_API").skip(1) {
        let decl = chunk.split(';').next().unwrap();
        let open = decl.find('(').expect("prototype");
        let close = decl.rfind(')').expect("prototype");
        let (ret, name) = split_decl(&decl[..open]);
        let params = decl[open + 1..close].trim();
        let params: Vec<String> = if params == "void" || params.is_empty() {
            Vec::new()
        } else {
            split_params(params).iter().map(|p| param_type(p)).collect()
        };
        assert!(out.insert(name.clone(), (params, rust_type(&ret))).is_none(), "{name} declared twice");
    }
    out
}

fn sys_prototypes(sys: &str) -> Prototypes {
    let start = sys.find("extern \"C\" {").expect("extern block");
    let block = &sys[start..];
    let block = &block[..block.find("\n}").expect("end of extern block")];
    let code: String =
        block.lines().map(|l| l.split("//").next().unwrap()).collect::<Vec<_>>().join(" ").replace('\n', " ");
    let mut out = Prototypes::new();
    for decl in code.split(';') {
        let Some(at) = decl.find("pub fn ") else { continue };
        let decl = &decl[at + 7..];
        let open = decl.find('(').unwrap();
        let close = decl.rfind(')').unwrap();
        let name = decl[..open].trim().to_string();
        let params: Vec<String> = split_params(&decl[open + 1..close])
            .into_iter()
            .filter(|p| !p.is_empty())
            .map(|p| normalise(p.split_once(':').expect("name: type").1))
            .collect();
        let ret = decl[close + 1..].trim().strip_prefix("->").map_or("()".to_string(), normalise);
        assert!(out.insert(name.clone(), (params, ret)).is_none(), "{name} declared twice in sys.rs");
    }
    out
}

fn normalise(t: &str) -> String {
    t.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[test]
fn constants_match() {
    let header = header_constants(&header_code(&header()));
    let sys = read("bindings/rust/src/sys.rs");
    assert!(header.len() >= 19, "found only {header:?}");
    let mut missing = Vec::new();
    for (name, value) in &header {
        if name == "PATHCONFIG_H" {
            continue;
        }
        let line = sys.lines().find(|l| l.trim_start().starts_with(&format!("pub const {name}:")));
        match line {
            None => missing.push(format!("{name} (= {value}) is not in sys.rs")),
            Some(line) => {
                let rust_value = line.split('=').nth(1).unwrap().trim().trim_end_matches(';').trim();
                if rust_value != value {
                    missing.push(format!("{name}: header {value}, sys.rs {rust_value}"));
                }
            }
        }
    }
    // And nothing in sys.rs that the header does not define.
    for line in sys.lines().filter_map(|l| l.trim_start().strip_prefix("pub const PATHCONFIG_")) {
        let name = format!("PATHCONFIG_{}", line.split(':').next().unwrap());
        if !header.contains_key(&name) {
            missing.push(format!("{name} is in sys.rs but not in the header"));
        }
    }
    assert!(missing.is_empty(), "{}", missing.join("\n"));
}

/// The fields of `typedef struct NAME { ... } NAME;` in the header, in Rust terms.
fn header_struct(code: &str, name: &str) -> Vec<(String, String)> {
    let start = code.find(&format!("typedef struct {name} {{")).unwrap_or_else(|| panic!("{name} in the header"));
    let body = &code[start..];
    let body = &body[body.find('{').unwrap() + 1..body.find('}').unwrap()];
    let mut fields = Vec::new();
    for decl in body.split(';').map(str::trim).filter(|d| !d.is_empty()) {
        // "int  line, column" declares two fields; "char message[512]" an array.
        let (ty, first) = split_decl(decl.split(',').next().unwrap().split('[').next().unwrap());
        let array = decl.split_once('[').map(|(_, n)| n.trim_end_matches(']').trim().to_string());
        let mut names = vec![first];
        names.extend(decl.split(',').skip(1).map(|n| n.trim().to_string()));
        for field in names {
            let rust = match &array {
                Some(n) => format!("[{}; {n}]", rust_type(&ty)),
                None => rust_type(&ty),
            };
            fields.push((field, rust));
        }
    }
    fields
}

fn sys_struct(sys: &str, name: &str) -> Vec<(String, String)> {
    let start = sys.find(&format!("pub struct {name} {{")).unwrap_or_else(|| panic!("{name} in sys.rs"));
    let body = &sys[start..];
    let body = &body[body.find('{').unwrap() + 1..body.find('}').unwrap()];
    body.lines()
        .map(str::trim)
        .filter_map(|l| l.strip_prefix("pub "))
        .map(|l| {
            let (name, ty) = l.trim_end_matches(',').split_once(':').unwrap();
            (name.trim().to_string(), normalise(ty))
        })
        .collect()
}

#[test]
fn structs_match() {
    let code = header_code(&header());
    let sys = read("bindings/rust/src/sys.rs");
    // Every struct with a body: its fields, in order.
    let names: Vec<&str> = code
        .split("typedef struct ")
        .skip(1)
        .filter_map(|rest| rest.split_once('{').filter(|(name, _)| !name.contains(';')).map(|(name, _)| name.trim()))
        .collect();
    assert!(names.contains(&"pathconfig_error"), "{names:?}");
    for name in &names {
        assert_eq!(sys_struct(&sys, name), header_struct(&code, name), "{name} fields, in order");
        assert!(
            sys.contains(&format!("#[repr(C)]\n#[derive(Clone, Copy)]\npub struct {name} {{")),
            "{name} is #[repr(C)]"
        );
    }
    // Every opaque handle (`typedef struct X X;`) is an opaque #[repr(C)] struct.
    let opaque: Vec<&str> = code
        .split("typedef struct ")
        .skip(1)
        .filter_map(|rest| rest.split_once(';').map(|(decl, _)| decl))
        .filter(|decl| !decl.contains('{'))
        .filter_map(|decl| decl.split_whitespace().next())
        .collect();
    assert!(opaque.contains(&"pathconfig") && opaque.contains(&"pathconfig_result"), "{opaque:?}");
    for name in opaque {
        assert!(
            sys.contains(&format!("#[repr(C)]\npub struct {name} {{\n    _data: [u8; 0],")),
            "{name} is not an opaque #[repr(C)] struct in sys.rs"
        );
    }
}

#[test]
fn callback_types_match() {
    let code = header_code(&header()).replace('\n', " ");
    let sys = read("bindings/rust/src/sys.rs").replace('\n', " ");
    let mut checked = 0;
    for typedef in code.split("typedef ").skip(1).filter(|t| t.contains("(*")) {
        let (name, ty) = function_pointer(typedef.split(';').next().unwrap());
        let expected = format!("pub type {name} = {ty};");
        assert!(normalise(&sys).contains(&expected), "sys.rs lacks {expected}");
        checked += 1;
    }
    assert!(checked >= 3, "found only {checked} function pointer typedefs in the header");
}

#[test]
fn prototypes_match() {
    let header = header_prototypes(&header_code(&header()));
    let sys = sys_prototypes(&read("bindings/rust/src/sys.rs"));
    assert!(header.len() >= 41, "found only {} prototypes in the header", header.len());
    let mut problems = Vec::new();
    for (name, proto) in &header {
        match sys.get(name) {
            None => problems.push(format!("{name} is not declared in sys.rs: expected {proto:?}")),
            Some(got) if got != proto => problems.push(format!("{name}: header {proto:?}, sys.rs {got:?}")),
            Some(_) => {}
        }
    }
    for name in sys.keys().filter(|n| !header.contains_key(*n)) {
        problems.push(format!("{name} is in sys.rs but not in the header"));
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn the_translator_itself() {
    assert_eq!(rust_type("const char *"), "*const c_char");
    assert_eq!(rust_type("char *"), "*mut c_char");
    assert_eq!(rust_type("const char **"), "*mut *const c_char");
    assert_eq!(rust_type("const pathconfig_result *"), "*const pathconfig_result");
    assert_eq!(rust_type("size_t"), "usize");
    assert_eq!(rust_type("uint64_t"), "u64");
    assert_eq!(rust_type("void"), "()");
    assert_eq!(split_decl("const char *key"), ("const char *".to_string(), "key".to_string()));
    assert_eq!(
        split_params("int a, void (*f)(void *x, int y), char *b"),
        ["int a", "void (*f)(void *x, int y)", "char *b"]
    );
    assert_eq!(
        param_type("void (*free_context)(void *context)"),
        "Option<unsafe extern \"C\" fn(context: *mut c_void)>"
    );
    assert_eq!(
        function_pointer("int (*pathconfig_rule_fn)(void *context, pathconfig_request *request)"),
        (
            "pathconfig_rule_fn".to_string(),
            "Option<unsafe extern \"C\" fn(context: *mut c_void, request: *mut pathconfig_request) -> c_int>"
                .to_string()
        )
    );
}
