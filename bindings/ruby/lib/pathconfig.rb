# frozen_string_literal: true

# libpathconfig for Ruby: Turbo / Hotwire Native path configurations, read
# exactly as each app reads them, through the library's C ABI (ffi).
#
#   config = Pathconfig::PathConfiguration.from_file("path-configuration.json", profile: "hotwire-ios")
#   props = config.properties("https://example.com/messages/new")
#   props                 # => {"context"=>"modal", "pull_to_refresh_enabled"=>false}, a frozen Hash
#   props.context         # => "modal": typed, defaults applied
#   props.json            # the same as the library's JSON text
#
# The library is the one PATHCONFIG_LIBRARY names, else the system's
# libpathconfig.so.1 (Pathconfig::Library). Lookups and typed reads go
# through the gem's optional C extension where it is built
# (Pathconfig::SPEEDUPS, Pathconfig::FastPath), else through ffi.

require "set"
require_relative "pathconfig/version"
require_relative "pathconfig/native"
require_relative "pathconfig/errors"
require_relative "pathconfig/text"
require_relative "pathconfig/json_text"
require_relative "pathconfig/catalog"
require_relative "pathconfig/options"
require_relative "pathconfig/warning"
require_relative "pathconfig/properties"
require_relative "pathconfig/handle_owner"
require_relative "pathconfig/fast_path"
require_relative "pathconfig/callbacks"
require_relative "pathconfig/rules"
require_relative "pathconfig/configuration"
require_relative "pathconfig/sources"
require_relative "pathconfig/events"
require_relative "pathconfig/loader"

module Pathconfig
  # The version of the loaded libpathconfig, e.g. "1.1.0".
  def self.library_version
    Native.utf8(Native.pathconfig_version)
  end

  # The path or name the library was loaded from.
  def self.library_path
    Native::LIBRARY_PATH
  end
end
