# frozen_string_literal: true

ROOT = File.expand_path("../../..", __dir__)
unless ENV["PATHCONFIG_LIBRARY"]
  built = File.join(ROOT, "out", "lib", "libpathconfig.so")
  ENV["PATHCONFIG_LIBRARY"] = built if File.file?(built)
end
$LOAD_PATH.unshift File.expand_path("../lib", __dir__)
require "json"
require "pathconfig/rspec"

EXAMPLE = File.join(ROOT, "examples", "path-configuration.json")

RSpec.configure do |config|
  config.include Pathconfig::RSpec
end
