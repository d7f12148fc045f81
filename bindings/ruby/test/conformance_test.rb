# frozen_string_literal: true

require_relative "test_helper"

# Every case of Tests/Fixtures/conformance (ios.json, android.json,
# siesta.json) through the gem, under every backend the library offers, as
# bindings/python/tests/test_conformance.py runs them through Python.
class ConformanceTest < Minitest::Test
  include JSONAssertions

  include Conformance
  DOCUMENT_LEVEL = %w[test_json_ Loader Decoder].freeze

  def test_conformance_files_are_present
    { "ios.json" => IOS, "android.json" => ANDROID, "siesta.json" => SIESTA }.each do |name, data|
      refute_nil data, "conformance file #{File.join(CONFORMANCE, name)} not found: set PATHCONFIG_CONFORMANCE"
    end
  end

  def load(data, case_, profile, backend)
    options = case_["options"] || {}
    Pathconfig::PathConfiguration.from_json(JSON.generate(data["fixtures"][case_["fixture"]]), profile: profile,
                                            backend: backend, match_query_strings: options["matchQueryStrings"])
  end

  def check_lookup(config, url, case_, expected)
    assert_equal case_["matched_string"], config.matched_string(url)
    assert_json_equal expected, JSON.parse(config.properties_json(url))
    props = config.properties(url)
    assert_json_equal expected, props
    assert_equal expected, props
    explained = config.explain(url)
    assert_equal case_["matched_string"], explained["matched_string"]
    assert_json_equal expected, explained["properties"]
    props
  end

  Pathconfig::BACKENDS.each do |backend|
    (IOS || {}).fetch("cases", []).each_with_index do |case_, i|
      define_method("test_ios_#{backend}_#{i}") do
        config = load(IOS, case_, IOS_PROFILES.fetch(case_["library"]), backend)
        props = check_lookup(config, case_["input"], case_, case_["expected_properties"])
        (case_["expected_typed"] || {}).each do |key, value|
          assert_json_equal value, props.public_send(key), key
          assert_json_equal value, props.typed(key), key
        end
        (case_["expected_string_accessor"] || {}).each { |key, value| assert_json_equal value, props.get_str(key), key }
        if case_.key?("expected_rule_match")
          matched = config.explain(case_["input"])["rules"].any? { |r| r["index"].zero? }
          assert_equal case_["expected_rule_match"], matched
        end
      ensure
        config&.close
      end
    end

    (IOS || {}).fetch("settings_cases", []).each_with_index do |case_, i|
      define_method("test_ios_settings_#{backend}_#{i}") do
        profile = IOS_PROFILES.fetch(case_["library"])
        if case_["expected_error"]
          error = assert_raises(Pathconfig::ConfigError) { load(IOS, case_, profile, backend) }
          assert_includes [Pathconfig::ErrorCode::E_JSON, Pathconfig::ErrorCode::E_SCHEMA], error.code
          next
        end
        config = load(IOS, case_, profile, backend)
        assert_json_equal case_["expected_settings"], config.settings
        unless case_["expected_rule_count"].nil?
          document = DOCUMENT_LEVEL.any? { |m| case_["source"].include?(m) }
          assert_equal case_["expected_rule_count"], document ? config.document_rule_count : config.rule_count
        end
      end
    end

    (ANDROID || {}).fetch("cases", []).each_with_index do |case_, i|
      define_method("test_android_#{backend}_#{i}") do
        config = load(ANDROID, case_, ANDROID_PROFILES.fetch(case_["implementation"]), backend)
        if case_["kind"] == "settings"
          setting = case_["expected_setting"]
          if setting["assertion"] == "size"
            assert_equal setting["value"], config.settings.size
          else
            assert_json_equal setting["value"], config.settings[setting["key"]]
          end
          next
        end
        props = check_lookup(config, case_["input"], case_, case_["expected_properties"])
        expected = case_["expected_property"]
        if expected
          key = expected["key"]
          actual = Pathconfig::TYPED_KEYS.key?(key) ? props.public_send(key) : props[key]
          assert_json_equal expected["value"], actual, key
          assert_json_equal expected["raw_value"], props[key], key
        end
      end
    end
  end
end
