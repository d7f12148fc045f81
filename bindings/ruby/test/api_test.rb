# frozen_string_literal: true

require_relative "test_helper"
require "yaml"

# The gem's API: loading, properties, typed and raw values, errors, text
# arguments in any encoding, settings, warnings, explain, rules from code, the
# catalog, handles.
class ApiTest < Minitest::Test
  include JSONAssertions
  PC = Pathconfig::PathConfiguration

  def config(**options)
    PC.from_file(EXAMPLE, **options)
  end

  def test_properties_are_a_frozen_hash_shared_by_answer
    cfg = config(profile: "hotwire-ios")
    props = cfg.properties("https://example.com/messages/new")
    assert_equal({ "context" => "modal", "pull_to_refresh_enabled" => false }, props)
    assert_kind_of Hash, props
    assert props.frozen?
    assert_raises(FrozenError) { props["context"] = "default" }
    assert_same props, cfg.properties("/messages/new")
    assert_equal '{"context":"modal","pull_to_refresh_enabled":false}', props.json
    assert_equal props.json, props.to_s
    assert_equal props.json, JSON.generate(props)
    copy = props.to_h
    copy["context"] = "default"
    refute copy.frozen?
    assert_equal "modal", props["context"]
  end

  def test_typed_accessors_follow_the_catalog
    props = config(profile: "hotwire-ios").properties("/messages/new")
    assert_equal "modal", props.context
    assert_equal "default", props.presentation
    assert_equal false, props.pull_to_refresh_enabled
    assert_equal false, props.pull_to_refresh_enabled?
    assert_equal true, props.animated
    Pathconfig::TYPED_KEYS.each_value do |key|
      assert props.respond_to?(key.name), key.name
      value = props.public_send(key.name)
      value.nil? ? assert_nil(props.typed(key.name.to_sym)) : assert_equal(value, props.typed(key.name.to_sym))
      assert_equal Pathconfig::TYPED_KEYS[key.name].kind == :bool, [true, false].include?(props.typed(key.name))
    end
    error = assert_raises(Pathconfig::ConfigError) { props.typed("nope") }
    assert_equal Pathconfig::ErrorCode::E_ARGUMENT, error.code
  end

  def test_android_reads_enums_case_insensitively_and_strings_as_booleans
    json = '{"rules":[{"patterns":[".*"],"properties":{"presentation":"POP","pull_to_refresh_enabled":"true"}}]}'
    props = PC.from_json(json, profile: "turbo-android").properties("/x")
    assert_equal "pop", props.presentation
    assert_equal true, props.pull_to_refresh_enabled
    crash = PC.from_json(json, profile: "hotwire-android").properties("/x")
    2.times do
      error = assert_raises(Pathconfig::ConfigError) { crash.pull_to_refresh_enabled }
      assert_equal Pathconfig::ErrorCode::E_CRASH, error.code
      assert_equal "PATHCONFIG_E_CRASH", error.name
    end
  end

  def test_raw_getters_keep_json_types
    json = '{"rules":[{"patterns":[".*"],"properties":{"s":"a\u0000b","i":7,"f":1.50,"b":true,"n":null,"o":{"x":[1]}}}]}'
    props = PC.from_json(json).properties("/x")
    assert_equal "a\0b", props.get_str("s")
    assert_equal 7, props.get_int("i")
    assert_nil props.get_int("f")
    assert_equal 1.5, props.get_float("f")
    assert_equal 7.0, props.get_float("i")
    assert_equal true, props.get_bool("b")
    assert_nil props.get_str("i")
    assert_nil props.get_str("missing")
    assert_equal "1.50", props.get_json("f")
    assert_equal '{"x":[1]}', props.get_json("o")
    assert_json_equal({ "s" => "a\0b", "i" => 7, "f" => 1.5, "b" => true, "n" => nil, "o" => { "x" => [1] } }, props)
    assert props["o"].frozen? && props["o"]["x"].frozen?
  end

  # Each raw getter's value of a key is read from the library once and kept
  # on the answer, frozen; keys the answer lacks are answered without being
  # kept, so asking for any number of them keeps nothing more, and a key the
  # library cannot take is refused every time.
  def test_raw_getters_keep_only_this_answers_keys
    props = config.properties("/new")
    getters = %i[get_str get_bool get_int get_float get_json]
    first = props.keys.map { |key| getters.map { |get| props.public_send(get, key) } }
    10_000.times { |i| getters.each { |get| assert_nil props.public_send(get, "missing #{i}") } }
    assert_equal first, props.keys.map { |key| getters.map { |get| props.public_send(get, key.to_sym) } }
    assert_equal [getters.size, props.size * 2], [props.instance_variable_get(:@raw).size,
                                                   props.instance_variable_get(:@raw).values.map(&:size).max]
    assert first.flatten.grep(String).all?(&:frozen?)
    getters.each do |get|
      2.times do
        assert_raises(ArgumentError) { props.public_send(get, "context\0") }
        assert_raises(TypeError) { props.public_send(get, 42) }
      end
    end
  end

  def test_errors_carry_code_path_line_column_rule_and_pattern
    broken = File.join(ROOT, "examples", "broken.json")
    error = assert_raises(Pathconfig::ConfigError) { PC.from_file(broken) }
    assert_equal Pathconfig::ErrorCode::E_REGEX, error.code
    assert_equal "PATHCONFIG_E_REGEX", error.name
    assert_equal [4, 29, 1, 1], [error.line, error.column, error.rule_index, error.pattern_index]
    assert_equal broken, error.path
    assert_match(/\A#{Regexp.escape(broken)}:4:29: rule 1, pattern 1: invalid regular expression/, error.message)
    json_error = assert_raises(Pathconfig::ConfigError) { PC.from_json("{\n  \"rules\": [,]\n}") }
    assert_equal [Pathconfig::ErrorCode::E_JSON, 2], [json_error.code, json_error.line]
    missing = assert_raises(Pathconfig::FileError) { PC.from_file(File.join(Dir.tmpdir, "no-such-pathconfig.json")) }
    assert_equal Errno::ENOENT::Errno, missing.errno
    assert_equal Errno::ENOENT, missing.errno_class
    assert_kind_of Pathconfig::ConfigError, missing
    options = assert_raises(Pathconfig::ConfigError) { PC.from_json("{}", profile: "hotwire-ios@9.9") }
    assert_equal Pathconfig::ErrorCode::E_OPTIONS, options.code
    assert_raises(ArgumentError) { PC.from_json("{}", colour: "red") }
    assert_raises(TypeError) { PC.from_json("{}", lenient: "yes") }
  end

  def test_text_in_any_encoding_reaches_the_library_as_utf8
    cfg = config(profile: "hotwire-ios")
    %w[UTF-16LE UTF-16BE UTF-32LE ISO-8859-1 Windows-1252].each do |encoding|
      props = cfg.properties("/messages/new".encode(encoding))
      assert_equal "modal", props.context, encoding
    end
    assert_equal "/caf\u00e9", cfg.matched_string("/caf\xE9".dup.force_encoding("ISO-8859-1"))
    assert_equal "/caf\u00e9", cfg.matched_string("/caf\u00e9".b)
    error = assert_raises(ArgumentError) { cfg.properties("/messages\0/new") }
    assert_match(/url contains a NUL/, error.message)
    assert_raises(ArgumentError) { cfg.properties("/a\0/new".encode("UTF-16LE")) }
    assert_raises(Encoding::InvalidByteSequenceError) { cfg.properties("/a\xFF".b) }
    assert_raises(Encoding::InvalidByteSequenceError) { cfg.properties("/a\xFF".dup.force_encoding("UTF-8")) }
    assert_raises(EncodingError) { cfg.properties("\xD8\x00".dup.force_encoding("UTF-16BE")) }
    assert_raises(TypeError) { cfg.properties(42) }
    assert_equal "modal", cfg.properties(:"/messages/new").context
    utf16 = File.read(EXAMPLE).encode("UTF-16LE")
    assert_equal 5, PC.from_json(utf16).document_rule_count
  end

  def test_method_and_rules_from_code
    cfg = PC.from_json('{"rules":[]}', profile: "siesta", base_url: "https://api.example.com")
    token = +"one"
    seen = []
    index = cfg.add_rule(globs: ["**"], methods: ["POST"], properties: { "kind" => "write" },
                         configurer: lambda { |request, _props|
                           seen << request.to_s
                           request.set_header("X-Token", token)
                           request.set_int("n", 2)
                           request.set_bool("b", true)
                           request.set_float("f", 0.5)
                           request.set_str("s", 'abc", "X-Admin": "true')
                         })
    assert_equal 0, index
    assert_equal({}, cfg.properties("/users/1"))
    post = cfg.properties("/users/1", method: "post")
    assert_equal({ "kind" => "write", "headers" => { "X-Token" => "one" }, "n" => 2, "b" => true, "f" => 0.5,
                   "s" => 'abc", "X-Admin": "true' }, post)
    assert_equal ["POST https://api.example.com/users/1"], seen
    token.replace("two")
    assert_equal "one", cfg.properties("/users/1", method: "POST")["headers"]["X-Token"], "memoised"
    cfg.invalidate
    assert_equal "two", cfg.properties("/users/1", method: "POST")["headers"]["X-Token"]
    assert_equal true, cfg.explain("/users/1", method: "POST")["rules"][0]["from_code"]
  end

  def test_a_callback_exception_is_the_lookups_and_a_predicate_cannot_change_anything
    cfg = PC.from_json('{"rules":[]}')
    cfg.add_rule(patterns: ["^/boom"], configurer: ->(_r, _p) { raise KeyError, "no token" })
    error = assert_raises(KeyError) { cfg.properties("/boom") }
    assert_equal "no token", error.message
    assert_kind_of Pathconfig::CallbackError, error.cause
    kept = nil
    cfg.add_rule(patterns: ["^/pred"], predicate: lambda { |request|
      kept = request
      request.set_str("x", "y")
    })
    assert_raises(Pathconfig::MisuseError) { cfg.properties("/pred") }
    assert_raises(Pathconfig::MisuseError) { kept.set_str("x", "y") }
    assert_equal({}, cfg.properties("/other"))
  end

  def test_settings_options_warnings_and_counts
    cfg = config
    assert_equal({ "new_composer" => true }, cfg.settings["feature_flags"])
    assert_equal "hotwire-ios", cfg.profile
    assert_equal "pcre2", cfg.options["backend"]
    assert_equal 5, cfg.document_rule_count
    assert_operator cfg.rule_count, :>, 5
    warned = PC.from_json('{"rules":[{"patterns":["("],"properties":{}},{"patterns":[".*"],"properties":{"a":1,"a":2}}]}',
                          lenient: true)
    kinds = warned.warnings.map(&:kind)
    assert_includes kinds, "skipped-pattern"
    assert_includes kinds, "duplicate-key"
    dup = warned.warnings.find { |w| w.kind == "duplicate-key" }
    assert_equal 1, dup.rule_index
    assert_match(/\A\d+:\d+: /, dup.to_s)
  end

  # The library reads documents, answers and rules from code nested up to
  # 256 levels; Ruby's json stops at 100 unless told. Each way the gem reads
  # or writes JSON goes past it.
  def test_values_nested_as_deep_as_the_library_reads
    deep = 250.times.reduce(1) { |value, _| { "k" => value } }
    document = { "settings" => { "s" => deep }, "rules" => [{ "patterns" => [".*"], "properties" => { "x" => deep } }] }
    cfg = PC.from_json(JSON.generate(document, max_nesting: false), profile: "hotwire-ios")
    assert_equal deep, cfg.properties("/a")["x"]
    assert_equal deep, cfg.properties("/a").to_h["x"]
    assert_equal deep, cfg.settings["s"]
    assert_equal deep, cfg.explain("/a")["properties"]["x"]
    seen = nil
    from_code = PC.from_json('{"rules":[]}', profile: "siesta")
    from_code.add_rule(patterns: [".*"], properties: { "y" => deep },
                       configurer: ->(request, _props) { seen = request.properties["y"]; nil })
    assert_equal deep, from_code.properties("/a")["y"]
    assert_equal deep, seen
  end

  # A copy that kept the answer's reference on the library's result (what
  # Object#dup and Hash#merge make of a Hash subclass) read it after the
  # garbage collector freed it.
  def test_copies_of_properties_are_plain_hashes
    props = config.properties("/messages/new")
    expected = { "context" => "modal", "pull_to_refresh_enabled" => false }
    copies = { dup: props.dup, merge: props.merge("extra" => 1), unfrozen_clone: props.clone(freeze: false),
               marshal: Marshal.load(Marshal.dump(props)), yaml: YAML.unsafe_load(YAML.dump(props)) }
    copies.each do |how, copy|
      assert_instance_of Hash, copy, how
      refute copy.frozen?, how
      assert_empty copy.instance_variables, how
      assert_equal expected.merge(how == :merge ? { "extra" => 1 } : {}), copy, how
    end
    copies[:dup]["context"] = "default"
    assert_equal "modal", props["context"]
    assert_same props, props.clone
    assert_raises(NoMethodError) { Pathconfig::Properties.new }
    assert_raises(NoMethodError) { Pathconfig::Properties["context" => "modal"] }
    nested = PC.from_json('{"rules":[{"patterns":["."],"properties":{"x":{"y":[1]}}}]}').properties("/a")
    assert nested.dup["x"].frozen?, "dup is shallow, as Hash#dup is"
    refute Marshal.load(Marshal.dump(nested))["x"]["y"].frozen?, "Marshal copies all the way down, as to_h does"
    assert_equal YAML.dump(nested.to_h), YAML.dump(nested), "YAML writes a plain map, no instance variables"
  end

  # A copy would release the same handle, so the first of the two the
  # garbage collector took would free it under the other.
  def test_handle_owners_refuse_copies
    cfg = config
    loader = Pathconfig::Loader.new([Pathconfig::DataSource.new(File.read(EXAMPLE))])
    [cfg, loader].each do |owner|
      { dup: -> { owner.dup }, clone: -> { owner.clone }, dump: -> { Marshal.dump(owner) } }.each do |how, copy|
        error = assert_raises(TypeError) { copy.call }
        assert_equal "can't #{how} #{owner.class}: it owns a library handle", error.message
      end
    end
    GC.start
    loader.load
    assert_equal "modal", cfg.properties("/messages/new").context
    assert_equal "modal", loader.current.properties("/messages/new").context
  ensure
    loader&.close
  end

  def test_close_and_use_after_close
    cfg = config
    props = cfg.properties("/messages/new")
    cfg.close
    cfg.close
    assert cfg.closed?
    assert_raises(Pathconfig::ClosedError) { cfg.properties("/messages/new") }
    assert_raises(Pathconfig::ClosedError) { cfg.explain("/messages/new") }
    assert_equal "modal", props.context
    block_result = PC.from_file(EXAMPLE) { |c| c.properties("/a/new").context }
    assert_equal "modal", block_result
  end

  def test_lookup_failures_raise_the_librarys_error
    cfg = PC.from_json('{"rules":[]}', max_url_bytes: 8)
    error = assert_raises(Pathconfig::ConfigError) { cfg.properties("/a/very/long/path") }
    assert_equal Pathconfig::ErrorCode::E_LIMIT, error.code
    url = PC.from_json('{"rules":[]}', profile: "turbo-android")
    assert_equal Pathconfig::ErrorCode::E_URL, assert_raises(Pathconfig::ConfigError) { url.properties("mailto:a@b.c") }.code
    bad_method = assert_raises(Pathconfig::ConfigError) { cfg.properties("/a", method: "GE T") }
    assert_equal Pathconfig::ErrorCode::E_ARGUMENT, bad_method.code
  end

  def test_catalog_comes_from_the_library
    assert_equal Pathconfig::Native.pathconfig_profile_count, Pathconfig::PROFILES.size
    assert_equal "hotwire-ios", Pathconfig::PROFILES.first
    assert_equal %w[ios android], Pathconfig::PLATFORMS.values.uniq.sort.reverse
    assert_includes Pathconfig::RELEASES["hotwire-ios"], "hotwire-ios@main"
    assert_includes Pathconfig::RELEASE_LINES["hotwire-ios@1.2.0"].tags, "1.2.2"
    assert_includes Pathconfig::BACKENDS, "pcre2"
    assert_equal :enum, Pathconfig::TYPED_KEYS["context"].kind
    assert_equal "default", Pathconfig::TYPED_KEYS["context"].defaults["hotwire-ios"]
    assert_includes Pathconfig::BOOL_KEYS, "pull_to_refresh_enabled"
    assert Pathconfig::PROFILES.frozen? && Pathconfig::TYPED_KEYS.frozen?
  end

  def test_memory_stays_flat_over_many_lookups_and_answers
    cfg = config
    urls = Array.new(2000) { |i| i.even? ? "/messages/#{i}/new" : "/messages/#{i}" }
    rss = lambda do
      GC.start
      File.read("/proc/self/status")[/VmRSS:\s+(\d+)/, 1].to_i
    end
    3.times { urls.each { |u| cfg.properties(u).context } }
    before = rss.call
    60.times { urls.each { |u| cfg.properties(u).context } }
    assert_operator rss.call - before, :<, 8 * 1024, "RSS grew over 120,000 lookups (kB)"
  end

  def test_threads_agree
    cfg = config
    expected = cfg.properties("/messages/new").json
    threads = Array.new(4) { Thread.new { Array.new(2000) { cfg.properties("/messages/new").json }.uniq } }
    assert_equal [[expected]] * 4, threads.map(&:value)
  end

  def test_library_path_and_version
    assert_equal Pathconfig::VERSION, Pathconfig.library_version
    assert_equal ENV["PATHCONFIG_LIBRARY"], Pathconfig.library_path
    assert_equal Pathconfig::Native::HEADER_VERSION, Pathconfig::VERSION
  end
end
