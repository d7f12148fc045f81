# frozen_string_literal: true

require_relative "test_helper"

# No read path changes an answer: every way Ruby reads a Properties (the
# Hash, #json, #to_s, #to_json, JSON.generate, #to_h, Marshal, the raw
# getters, #typed and the typed accessors), a new answer and then a kept
# one (the raw getters' and typed values kept on it), against the library's own readers on a fresh C result of the same
# lookup, on the conformance cases and on random configurations, as
# bindings/python/tests/test_differential.py does for Python. The documents
# are written as JSON text, number literals and escapes as a file would
# have them, under every profile and release the library names.
class DifferentialTest < Minitest::Test
  include JSONAssertions
  include Conformance

  PC = Pathconfig::PathConfiguration
  N = Pathconfig::Native
  INT64 = (-(2**63))...(2**63)
  # PATHCONFIG_TYPE_* by name, from the header the library is built with.
  TYPES = File.read(File.join(ROOT, "include", "pathconfig", "result.h"))
              .scan(/^#define PATHCONFIG_TYPE_(\w+)\s+(\d+)/).to_h { |name, value| [name, Integer(value)] }.freeze

  # assert_equal, or assert_nil where nil is expected.
  def assert_value(expected, actual, where)
    expected.nil? ? assert_nil(actual, where) : assert_equal(expected, actual, where)
  end

  # A new C result of the lookup (an address), given to the block and released after it.
  def fresh(config, url)
    handed = N.pathconfig_resolve(config.instance_variable_get(:@address), url, nil, nil)
    address = N.address_of(handed)
    refute_equal 0, address, "#{url}: #{Pathconfig.last_error.message if address.zero?}"
    yield address
  ensure
    N.give_back(handed, :pathconfig_result_release) if handed
  end

  # The PATHCONFIG_TYPE_ of a decoded value whose literal is `raw`.
  def json_type(value, raw)
    case value
    when nil then TYPES.fetch("NULL")
    when true, false then TYPES.fetch("BOOL")
    when String then TYPES.fetch("STRING")
    when Array then TYPES.fetch("ARRAY")
    when Hash then TYPES.fetch("OBJECT")
    else TYPES.fetch(int64?(value, raw) ? "INT" : "DOUBLE")
    end
  end

  # An integer written without fraction or exponent that fits in int64_t.
  def int64?(value, raw)
    value.is_a?(Integer) && !raw.match?(/[.eE]/) && INT64.cover?(value)
  end

  # Every read of config.properties(url), twice (a new answer, then a kept
  # one), against a fresh C result of the same lookup.
  def check(config, url)
    2.times do
      props = config.properties(url)
      fresh(config, url) { |res| compare(props, res, "#{url} (#{config.profile})") }
    end
  end

  def compare(props, res, where)
    text = N.utf8(N.pathconfig_result_json(res))
    assert_equal [text, text, text], [props.json, props.to_s, props.to_json], where
    assert_equal N.pathconfig_result_id(res), props.answer_id, where
    decoded = JSON.parse(text, max_nesting: false)
    assert_json_equal decoded, props, where
    generated = JSON.generate(props, max_nesting: false)
    assert_json_equal decoded, JSON.parse(generated, max_nesting: false), "#{where} JSON.generate"
    copy = props.to_h
    refute copy.frozen?, where
    assert_json_equal decoded, copy, "#{where} to_h"
    assert_json_equal decoded, Marshal.load(Marshal.dump(props)), "#{where} Marshal"
    assert_equal N.pathconfig_result_count(res), props.size, where
    props.each_key.with_index do |key, i|
      assert_equal N.utf8(N.pathconfig_result_key(res, i)), key, where
      value = decoded[key]
      at = "#{where} #{key.inspect}"
      assert_same props[key], props.fetch(key), at
      raw = props.get_json(key)
      assert_json_equal value, JSON.parse(raw, max_nesting: false), at
      assert_value value.is_a?(String) ? value : nil, props.get_str(key), at
      assert_value [true, false].include?(value) ? value : nil, props.get_bool(key), at
      assert_value value.is_a?(Numeric) ? Float(value) : nil, props.get_float(key), at
      assert_value int64?(value, raw) ? value : nil, props.get_int(key), at
      assert_equal json_type(value, raw), N.pathconfig_result_type(res, i), at
    end
    %i[get_str get_bool get_int get_float get_json].each do |get|
      assert_nil props.public_send(get, "no such key"), where
    end
    Pathconfig::TYPED_KEYS.each { |name, info| compare_typed(props, res, name, info, where) }
  end

  # A typed key through #typed and its accessor against the library's read.
  def compare_typed(props, res, name, info, where)
    at = "#{where} #{name}"
    direct = if info.kind == :bool
               Pathconfig::Properties.ffi_typed_bool(res, info.index)
             else
               Pathconfig::Properties.ffi_typed_string(res, info.index)
             end
    reads = [-> { props.typed(name) }, -> { props.typed(name.to_sym) }]
    reads << -> { props.public_send(name) } if props.respond_to?(name)
    if info.kind == :bool ? direct.nil? : direct == false
      # The profile's app throws reading the key: every read raises the same, every time.
      crash = Pathconfig.last_error
      assert_equal Pathconfig::ErrorCode::E_CRASH, crash.code, at
      (reads * 2).each do |read|
        error = assert_raises(Pathconfig::ConfigError, at) { read.call }
        assert_equal [crash.code, crash.message], [error.code, error.message], at
      end
    else
      reads.each { |read| assert_value direct, read.call, at }
    end
  end

  def test_every_read_of_every_conformance_case_is_the_librarys
    cases = [[IOS, IOS_PROFILES], [ANDROID, ANDROID_PROFILES]].flat_map do |data, profiles|
      data["cases"].reject { |c| c["kind"] == "settings" }.map do |c|
        [data["fixtures"][c["fixture"]], profiles.fetch(c["library"] || c["implementation"]),
         (c["options"] || {})["matchQueryStrings"], c["input"]]
      end
    end
    assert_operator cases.size, :>, 50
    cases.each do |fixture, profile, queries, url|
      options = { profile: profile, match_query_strings: queries, result_cache_size: 0 }
      PC.from_json(JSON.generate(fixture), **options) { |config| check(config, url) }
    end
  end

  # --- random configurations, written as JSON text ---

  PATTERNS = [".*", "^/a", "/new$", "/edit$", "b", "^/x/\\d+$", "\\?q=", "caf\u00e9", "^/$", "(a|b)+c",
              "(?i)/EDIT"].freeze
  URLS = ["/", "/a", "/a/new", "/b/edit", "/x/12", "/x/12?q=1", "/caf\u00e9/new", "/abc", "/zzz",
          "https://example.com/a/b/new?q=2", "/aab", "/ab/abc", "/A/EDIT"].freeze
  # String literals as a file may write them: escapes, a NUL, a surrogate pair, quotes.
  STRINGS = ['""', '"modal"', '"Modal"', '"DEFAULT"', '"pop"', '"POP"', '"push"', '"replace_root"', '"none"',
             '"page_sheet"', '"large"', '"true"', '"FALSE"', '"x\u0000y"', '"caf\u00e9 \u2603"', '"\ud83d\ude00"',
             '"q\"uote\\\\"', '"web"', "\"caf\u00e9\"", '"\/"', '"1"'].freeze
  NUMBERS = %w[0 1 -7 -0 -0.0 1.50 1E2 1e-7 2.0 9007199254740993 9223372036854775807 -9223372036854775808
               9223372036854775808 100000000000000000000000000000 1e30 1e300 0.1e-400 1.7976931348623157e308].freeze
  KEYS = (Pathconfig::TYPED_KEYS.keys + %w[flow headers n nested title caf\u00e9]).freeze

  def random_value(rng, depth = 0, containers: true)
    roll = containers ? rng.rand : rng.rand * 0.77
    return STRINGS.sample(random: rng) if roll < 0.35 || (depth > 2 && roll >= 0.77)
    return %w[true false].sample(random: rng) if roll < 0.5
    return NUMBERS.sample(random: rng) if roll < 0.7
    return "null" if roll < 0.77
    if roll < 0.88
      "[#{Array.new(rng.rand(0..3)) { random_value(rng, depth + 1) }.join(',')}]"
    else
      members = Array.new(rng.rand(0..3)) do
        "#{JSON.generate(%w[k headers x context].sample(random: rng))}:#{random_value(rng, depth + 1)}"
      end
      "{#{members.join(',')}}"
    end
  end

  # Rules of random patterns and properties (turbo-android refuses objects
  # and arrays: `containers: false` there); a key repeats in one rule in ten.
  def random_document(rng, containers:)
    rules = Array.new(rng.rand(0..8)) do
      patterns = PATTERNS.sample(rng.rand(1..2), random: rng).map { |p| JSON.generate(p) }
      keys = KEYS.sample(rng.rand(0..5), random: rng)
      keys << keys.first if !keys.empty? && rng.rand < 0.1
      properties = keys.map { |key| "#{JSON.generate(key)}:#{random_value(rng, containers: containers)}" }
      %({"patterns":[#{patterns.join(',')}],"properties":{#{properties.join(',')}}})
    end
    %({"rules":[#{rules.join(',')}]})
  end

  # Ruby's JSON (the gem's parse of an answer, and the test's) turns a
  # literal past Float's range, as 0.1e-400, into 0.0 and warns under
  # `ruby -w`: the only output the test lets through, captured here.
  def test_every_read_of_random_configurations_is_the_librarys
    _out, err = capture_io { read_random_configurations }
    assert_empty err.lines.grep_v(/\A\S+: warning: Float \S+ out of range\n\z/)
  end

  def read_random_configurations
    rng = Random.new(29)
    profiles = Pathconfig::PROFILES + Pathconfig::RELEASES.values.flatten
    profiles = profiles.reject { |p| p.start_with?("siesta") }
    checked = Hash.new(0)
    refused = 0
    300.times do
      profile = profiles.sample(random: rng)
      document = random_document(rng, containers: !profile.start_with?("turbo-android"))
      begin
        config = PC.from_json(document, profile: profile, merge: %w[shallow deep].sample(random: rng),
                                        result_cache_size: [0, nil].sample(random: rng))
      rescue Pathconfig::ConfigError => e
        # A document the profile's app refuses (a key repeated under Gson, ...) says so; nothing to read.
        refute_empty e.message
        refused += 1
        next
      end
      begin
        URLS.sample(5, random: rng).each do |url|
          check(config, url)
          checked[profile[/\A[a-z-]+/]] += 1
        end
      ensure
        config.close
      end
    end
    # Every app was read, most documents loaded.
    assert_equal %w[hotwire-android hotwire-ios turbo-android turbo-ios], checked.keys.sort
    assert_operator refused, :<, 150
  end
end
