# frozen_string_literal: true

require_relative "test_helper"
require "pathname"
require "pathconfig/minitest"

# Pathconfig::Minitest: the assertions pass where every app reads the values,
# and fail with a message naming the app, the value read and the matching rules.
class MinitestHelpersTest < Minitest::Test
  include Pathconfig::Minitest

  CONFIG = JSON.generate(
    "settings" => {},
    "rules" => [
      { "patterns" => [".*"], "properties" => { "context" => "default", "pull_to_refresh_enabled" => true } },
      { "patterns" => ["/new$"], "properties" => { "context" => "modal", "pull_to_refresh_enabled" => false,
                                                   "max" => 3, "flag" => "true" }, "description" => "forms" },
      { "patterns" => ["/android_only$"], "properties" => { "presentation" => "PUSH" } }
    ]
  )
  APPS = %w[hotwire-ios hotwire-android].freeze

  def path_configuration
    CONFIG
  end

  # The failure of a block of assertions, as Minitest reports it.
  def failure
    yield
    flunk "the assertion passed"
  rescue Minitest::Assertion => e
    raise if e.message == "the assertion passed"

    e.message
  end

  def test_passes_with_typed_values_on_every_app
    assert_path_properties "/posts/new", { context: "modal", pull_to_refresh_enabled: false, max: 3 }, apps: APPS
    assert_path_properties "/posts/new", { "presentation" => "default", "title" => nil }, apps: APPS
    assert_path_properties "/posts/new", { context: /\Amod/ }, apps: ["hotwire-ios@1.2.2"], config: CONFIG
    assert_path_properties "/posts/1", { modal_style: "large" }, apps: %w[hotwire-ios]
    assert_path_properties "/x/android_only", { presentation: "push" }, apps: %w[hotwire-android turbo-android]
  end

  def test_fails_on_json_types_naming_the_app_and_the_matching_rules
    message = failure { assert_path_properties "/posts/new", { max: "3" }, apps: APPS }
    assert_includes message, "/posts/new as hotwire-ios reads it:"
    assert_includes message, "/posts/new as hotwire-android reads it:"
    assert_includes message, 'max: expected "3" (string), got 3 (integer)'
    assert_includes message, 'rule 0: pattern ".*"'
    assert_includes message, 'rule 1: pattern "/new$" (forms)'
    assert_includes message, '"context":"modal"'
  end

  def test_fails_where_one_app_reads_otherwise
    message = failure { assert_path_properties "/x/android_only", { presentation: "default" }, apps: APPS }
    refute_includes message, "as hotwire-ios reads it"
    assert_includes message, 'presentation: expected "default" (string), got "push" (string)'
    crash = failure { assert_path_properties "/posts/new", { flag: true }, apps: APPS }
    assert_includes crash, 'flag: expected true (boolean), got "true" (string)'
  end

  def test_an_app_that_crashes_reading_a_key_fails
    config = JSON.generate("rules" => [{ "patterns" => [".*"], "properties" => { "pull_to_refresh_enabled" => "false" } }])
    assert_path_properties "/a", { pull_to_refresh_enabled: false }, apps: %w[turbo-android], config: config
    message = failure { assert_path_properties "/a", { pull_to_refresh_enabled: false }, apps: %w[hotwire-android], config: config }
    assert_includes message, "pull_to_refresh_enabled: expected false (boolean), got a crash of the app"
  end

  def test_configuration_from_a_file_an_object_or_a_hash
    assert_path_properties "/messages/new", { context: "modal" }, config: EXAMPLE
    assert_path_properties "/messages/new", { context: "modal" }, config: Pathname(EXAMPLE), apps: ["turbo-ios"]
    loaded = Pathconfig::PathConfiguration.from_file(EXAMPLE, profile: "turbo-ios")
    assert_path_properties "/messages/new", { context: "modal" }, config: loaded
    assert_raises(ArgumentError) { assert_path_properties "/a", {}, config: loaded, apps: ["hotwire-android"] }
    assert_path_properties "/a/new", { context: "modal" }, config: JSON.parse(CONFIG), apps: APPS
  end

  def test_an_unknown_app_or_version_is_the_librarys_error
    error = assert_raises(Pathconfig::ConfigError) { assert_path_properties "/a", {}, apps: ["hotwire-ios@9.9"] }
    assert_equal Pathconfig::ErrorCode::E_OPTIONS, error.code
    assert_includes error.message, "9.9"
  end

  def test_valid_configuration_assertion
    assert_valid_path_configuration apps: APPS
    message = failure { assert_valid_path_configuration File.join(ROOT, "examples", "broken.json"), apps: APPS }
    assert_includes message, "hotwire-ios: #{File.join(ROOT, 'examples', 'broken.json')}:4:29: rule 1, pattern 1:"
    dup = '{"rules":[{"patterns":[".*"],"properties":{"a":1,"a":2}}]}'
    assert_valid_path_configuration dup
    assert_includes failure { assert_valid_path_configuration dup, warnings: true }, "warning: duplicate-key"
  end
end
