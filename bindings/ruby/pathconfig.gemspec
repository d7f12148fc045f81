# frozen_string_literal: true

require_relative "lib/pathconfig/version"

Gem::Specification.new do |spec|
  spec.name = "pathconfig"
  spec.version = Pathconfig::VERSION
  spec.authors = ["the libpathconfig authors"]
  spec.summary = "Turbo / Hotwire Native path configurations, read exactly as each app reads them"
  spec.description = "Ruby bindings of libpathconfig (through ffi): load a path configuration, resolve URLs " \
                     "as hotwire-ios, turbo-ios, hotwire-android, turbo-android and Siesta read them, with " \
                     "errors that say where; Minitest assertions, RSpec matchers and a Rack server for Rails " \
                     "apps that serve their configurations. Needs the libpathconfig library installed " \
                     "(or PATHCONFIG_LIBRARY naming it); an optional C extension, built where a compiler " \
                     "and Ruby's headers are present, makes lookups faster."
  spec.license = "MIT"
  spec.required_ruby_version = ">= 3.0"
  spec.files = Dir["lib/**/*.rb"] + %w[ext/pathconfig/extconf.rb ext/pathconfig/speedups.c README.md LICENSE
                                       pathconfig.gemspec]
  spec.require_paths = ["lib"]
  # Optional: compiled by `gem install` where Ruby's headers (Debian: ruby-dev)
  # and a C compiler are present; elsewhere extconf.rb says so and the gem
  # calls the library through ffi alone (Pathconfig::SPEEDUPS).
  spec.extensions = ["ext/pathconfig/extconf.rb"]
  spec.add_dependency "ffi", ">= 1.15"
  spec.requirements << "libpathconfig 1.1 or a later 1.x (libpathconfig.so.1)"
end
