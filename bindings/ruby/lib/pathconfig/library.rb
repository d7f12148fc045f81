# frozen_string_literal: true

require "ffi"

module Pathconfig
  # Finding and opening libpathconfig, as the Python binding does
  # (bindings/python/src/pathconfig/_library.py), in this order:
  #
  # 1. PATHCONFIG_LIBRARY: an explicit path. When it is set nothing else is
  #    tried: an override that silently fell back to another copy would hide
  #    the mistake.
  # 2. The system's: the SONAME libpathconfig.so.1, which the dynamic linker
  #    looks up through LD_LIBRARY_PATH and its cache (what `make install`
  #    and the Debian package put there), then libpathconfig.so.
  #
  # Every candidate is probed for a symbol only libpathconfig exports, so an
  # unrelated file of the same name is refused. If nothing opens, one
  # LoadError lists every candidate tried and why it failed.
  module Library
    ENV_VAR = "PATHCONFIG_LIBRARY"
    # A symbol every libpathconfig exports, checked on each candidate.
    PROBE_SYMBOL = "pathconfig_version_number"
    SYSTEM_NAMES = %w[libpathconfig.so.1 libpathconfig.so].freeze

    module_function

    # The path or name that opens libpathconfig; raises LoadError naming
    # every candidate tried.
    def locate
      override = ENV[ENV_VAR]
      if override && !override.empty?
        begin
          probe(override)
          return override
        rescue LoadError => e
          raise LoadError, "libpathconfig: #{ENV_VAR}=#{override.inspect} could not be loaded: #{e.message}\n" \
                           "(unset #{ENV_VAR} to use the system's library)"
        end
      end
      tried = ["#{ENV_VAR}: not set"]
      SYSTEM_NAMES.each do |name|
        probe(name)
        return name
      rescue LoadError => e
        tried << "#{name}: #{e.message}"
      end
      raise LoadError, "libpathconfig could not be loaded. Tried:\n  - #{tried.join("\n  - ")}\n" \
                       "Install the library (`make install`, the Debian package libpathconfig1, or the " \
                       "release tarball), or set #{ENV_VAR}=/path/to/libpathconfig.so."
    end

    # Opens `name` and checks that it is libpathconfig.
    def probe(name)
      library = FFI::DynamicLibrary.open(name, FFI::DynamicLibrary::RTLD_LAZY | FFI::DynamicLibrary::RTLD_LOCAL)
      return if library.find_function(PROBE_SYMBOL)

      raise LoadError, "opens, but does not export #{PROBE_SYMBOL} (not libpathconfig)"
    end
  end
end
