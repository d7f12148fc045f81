# frozen_string_literal: true

# Shared set-up of the Minitest suites: the library is $PATHCONFIG_LIBRARY
# (the Makefile sets it from LIBDIR; when unset, the clone's out/lib if
# `make lib` made it), the conformance cases $PATHCONFIG_CONFORMANCE (else
# Tests/Fixtures/conformance of the clone). The gem is loaded from lib/.
ROOT = File.expand_path("../../..", __dir__)
unless ENV["PATHCONFIG_LIBRARY"]
  built = File.join(ROOT, "out", "lib", "libpathconfig.so")
  ENV["PATHCONFIG_LIBRARY"] = built if File.file?(built)
end
CONFORMANCE = ENV["PATHCONFIG_CONFORMANCE"] || File.join(ROOT, "Tests", "Fixtures", "conformance")

$LOAD_PATH.unshift File.expand_path("../lib", __dir__)
require "minitest/autorun"
require "json"
require "tmpdir"
require "fileutils"
require "pathconfig"

EXAMPLE = File.join(ROOT, "examples", "path-configuration.json")

# A new directory (named `prefix`...), removed with everything in it once
# this process's tests have run.
def scratch_dir(prefix = "pathconfig-")
  dir = Dir.mktmpdir(prefix)
  Minitest.after_run { FileUtils.rm_rf(dir) }
  dir
end

# Traps `signal` with a handler that raises `exception` while state[:armed]
# (counting in state[:raised]) and disarms as it raises, so that none can
# strike the rescue that catches it; returns the handler it replaced.
def trap_raising_when_armed(signal, state, exception)
  Signal.trap(signal) do
    if state[:armed]
      state[:armed] = false
      state[:raised] += 1
      raise exception
    end
  end
end

# The conformance cases, read once for every suite that runs them.
module Conformance
  # The parsed file `name` of CONFORMANCE, or nil when it is missing (the
  # suites then fail, naming it).
  def self.data(name)
    path = File.join(CONFORMANCE, name)
    File.file?(path) ? JSON.parse(File.read(path)) : nil
  end

  IOS = data("ios.json")
  ANDROID = data("android.json")
  SIESTA = data("siesta.json")
  # The profile that reads as each app of ios.json ("library") and
  # android.json ("implementation") does.
  IOS_PROFILES = { "turbo-ios" => "turbo-ios", "hotwire-native-ios" => "hotwire-ios" }.freeze
  ANDROID_PROFILES = { "hotwire-native-android" => "hotwire-android", "turbo-android" => "turbo-android" }.freeze
  PROFILES = IOS_PROFILES.merge(ANDROID_PROFILES).freeze
end

module JSONAssertions
  # Equality that also compares JSON types (1 and 1.0, true and 1 differ).
  def assert_json_equal(expected, actual, where = "$")
    case expected
    when Hash
      assert_kind_of Hash, actual, where
      assert_equal expected.keys, actual.keys, "#{where}: keys"
      expected.each { |k, v| assert_json_equal(v, actual[k], "#{where}.#{k}") }
    when Array
      assert_kind_of Array, actual, where
      assert_equal expected.size, actual.size, "#{where}: length"
      expected.each_with_index { |v, i| assert_json_equal(v, actual[i], "#{where}[#{i}]") }
    when nil
      assert_nil actual, where
    else
      assert_equal [expected.class, expected], [actual.class, actual], where
    end
  end
end
