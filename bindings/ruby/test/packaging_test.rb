# frozen_string_literal: true

require_relative "test_helper"
require "open3"
require "rbconfig"
require "fileutils"

# The gem as a user gets it: `gem build` makes it, `gem install --local`
# puts it into a fresh GEM_HOME, and a script run from a directory outside the
# clone uses it against an installed library: named by PATHCONFIG_LIBRARY, or
# found by the system's search (the dynamic linker's, here through
# LD_LIBRARY_PATH standing in for a system prefix after ldconfig), as
# Tests/PackagingTests does for the Python wheel. Without either, the error
# names every place tried. `gem install` compiles the C extension
# (pathconfig/speedups), which the installed gem then uses; a copy of the
# gem's files without it works through ffi alone.
class PackagingTest < Minitest::Test
  GEM_DIR = File.expand_path("..", __dir__)
  LIBRARY = ENV.fetch("PATHCONFIG_LIBRARY")

  SCRIPT = <<~RUBY
    require "pathconfig"
    require "json"
    config = Pathconfig::PathConfiguration.from_json(ARGF.read, profile: "hotwire-ios")
    props = config.properties("https://example.com/messages/new")
    puts JSON.generate("json" => props.json, "context" => props.context, "gem" => Gem.loaded_specs["pathconfig"]&.full_gem_path,
                       "file" => $LOADED_FEATURES.grep(%r{/pathconfig\\.rb\\z}).first, "version" => Pathconfig::VERSION,
                       "library" => Pathconfig.library_path, "library_version" => Pathconfig.library_version,
                       "speedups" => Pathconfig::SPEEDUPS,
                       "extension" => $LOADED_FEATURES.grep(%r{/pathconfig/speedups\\.#{RbConfig::CONFIG["DLEXT"]}\\z}).first)
  RUBY

  def self.installed
    @installed ||= begin
      home = scratch_dir("pathconfig-gem-home-")
      build = scratch_dir("pathconfig-gem-build-")
      out, status = Open3.capture2e("gem", "build", File.join(GEM_DIR, "pathconfig.gemspec"), "--output",
                                    File.join(build, "pathconfig.gem"), chdir: GEM_DIR)
      raise "gem build failed:\n#{out}" unless status.success?

      env = { "GEM_HOME" => home, "GEM_PATH" => [home, *Gem.path].join(":") }
      out, status = Open3.capture2e(env, "gem", "install", "--local", "--no-document", File.join(build, "pathconfig.gem"),
                                    chdir: build)
      raise "gem install failed:\n#{out}" unless status.success?

      home
    end
  end

  def run_outside(env)
    home = self.class.installed
    outside = scratch_dir("pathconfig-outside-")
    File.write(File.join(outside, "use.rb"), SCRIPT)
    clean = ENV.to_h.reject { |k, _| k.start_with?("PATHCONFIG_", "RUBY", "GEM_", "BUNDLE") || k == "LD_LIBRARY_PATH" }
    env = clean.merge("GEM_HOME" => home, "GEM_PATH" => [home, *Gem.path].join(":")).merge(env)
    Open3.capture3(env, RbConfig.ruby, "use.rb", stdin_data: File.read(EXAMPLE), chdir: outside, unsetenv_others: true)
  end

  def test_gem_installs_and_runs_outside_the_clone_with_pathconfig_library
    out, err, status = run_outside("PATHCONFIG_LIBRARY" => LIBRARY)
    assert status.success?, err
    answer = JSON.parse(out)
    assert_equal ['{"context":"modal","pull_to_refresh_enabled":false}', "modal"], answer.values_at("json", "context")
    assert answer["gem"].start_with?(self.class.installed), answer.inspect
    assert answer["file"].start_with?(self.class.installed), "loaded #{answer['file']}, not the installed gem"
    assert_equal [Pathconfig::VERSION, LIBRARY, Pathconfig::VERSION], answer.values_at("version", "library", "library_version")
    assert_equal true, answer["speedups"], "the installed gem does not use its C extension"
    assert answer["extension"]&.start_with?(self.class.installed), "loaded the extension #{answer['extension'].inspect}"
  end

  # extconf.rb where Ruby's headers or a C compiler are missing (simulated
  # by changing mkmf's configuration in the extconf.rb process, through
  # RUBYOPT): `gem install` still succeeds, without the extension, and
  # says why.
  def test_gem_installs_without_headers_or_compiler
    build = scratch_dir("pathconfig-gem-build-")
    out, status = Open3.capture2e("gem", "build", File.join(GEM_DIR, "pathconfig.gemspec"), "--output",
                                  File.join(build, "pathconfig.gem"), chdir: GEM_DIR)
    assert status.success?, out
    { "rubyhdrdir" => "Ruby's headers", "CC" => "a C compiler" }.each do |key, what|
      hack = File.join(build, "no-#{key}.rb")
      value = key == "CC" ? "/bin/false" : "/nonexistent"
      File.write(hack, "require 'rbconfig'\nif $0.end_with?('extconf.rb')\n  " \
                       "RbConfig::CONFIG[#{key.inspect}] = RbConfig::MAKEFILE_CONFIG[#{key.inspect}] = #{value.inspect}\nend\n")
      home = scratch_dir("pathconfig-gem-home-")
      env = { "GEM_HOME" => home, "GEM_PATH" => [home, *Gem.path].join(":"), "RUBYOPT" => "-r#{hack}" }
      out, status = Open3.capture2e(env, "gem", "install", "--local", "--no-document", "--verbose",
                                    File.join(build, "pathconfig.gem"), chdir: build)
      assert status.success?, "without #{what}: #{out}"
      assert_includes out, "the C extension pathconfig/speedups is not built", "without #{what}"
      assert_empty Dir[File.join(home, "gems", "pathconfig-*", "lib", "pathconfig", "speedups.*")], "without #{what}"
    end
  end

  def test_without_the_extension_the_gem_works_through_ffi
    home = self.class.installed
    gem_dir = Dir[File.join(home, "gems", "pathconfig-*")].first
    copy = scratch_dir("pathconfig-no-extension-")
    FileUtils.cp_r(File.join(gem_dir, "lib"), copy)
    Dir[File.join(copy, "lib", "pathconfig", "speedups.*")].each { |f| File.delete(f) }
    outside = scratch_dir("pathconfig-outside-")
    File.write(File.join(outside, "use.rb"), SCRIPT)
    clean = ENV.to_h.reject { |k, _| k.start_with?("PATHCONFIG_", "RUBY", "GEM_", "BUNDLE") || k == "LD_LIBRARY_PATH" }
    out, err, status = Open3.capture3(clean.merge("PATHCONFIG_LIBRARY" => LIBRARY), RbConfig.ruby,
                                      "-I", File.join(copy, "lib"), "use.rb",
                                      stdin_data: File.read(EXAMPLE), chdir: outside, unsetenv_others: true)
    assert status.success?, err
    answer = JSON.parse(out)
    assert_equal ['{"context":"modal","pull_to_refresh_enabled":false}', "modal"], answer.values_at("json", "context")
    assert_equal [false, nil], answer.values_at("speedups", "extension")
  end

  def test_gem_finds_the_library_through_the_system_search
    out, err, status = run_outside("LD_LIBRARY_PATH" => File.dirname(File.realpath(LIBRARY)))
    assert status.success?, err
    answer = JSON.parse(out)
    assert_equal "modal", answer["context"]
    assert_equal "libpathconfig.so.1", answer["library"]
  end

  def test_without_a_library_the_error_names_what_was_tried
    _out, err, status = run_outside({})
    refute status.success?
    assert_includes err, "libpathconfig could not be loaded. Tried:"
    assert_includes err, "PATHCONFIG_LIBRARY: not set"
    assert_includes err, "libpathconfig.so.1:"
    _out, err, status = run_outside("PATHCONFIG_LIBRARY" => "/nonexistent/libpathconfig.so")
    refute status.success?
    assert_includes err, 'PATHCONFIG_LIBRARY="/nonexistent/libpathconfig.so" could not be loaded'
  end

  def test_a_library_of_another_major_or_an_older_minor_is_refused
    src = File.read(File.join(GEM_DIR, "lib", "pathconfig", "native.rb"))
    script = "module Pathconfig; module Library; def self.locate = #{LIBRARY.inspect}; end; end\n" \
             "$LOADED_FEATURES << #{File.join(GEM_DIR, 'lib', 'pathconfig', 'library.rb').inspect}\n" +
             src.sub("HEADER_VERSION_NUMBER = 1001000", "HEADER_VERSION_NUMBER = 1002000")
               .sub('HEADER_VERSION = "1.1.0"', 'HEADER_VERSION = "1.2.0"')
               .sub('require_relative "library"', "")
    _out, err, status = Open3.capture3(RbConfig.ruby, "-rffi", "-e", script)
    refute status.success?
    assert_includes err, "is version 1.1.0; this gem needs 1.2.0 or a later 1.x"
  end
end
