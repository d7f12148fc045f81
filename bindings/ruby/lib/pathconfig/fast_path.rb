# frozen_string_literal: true

module Pathconfig
  # The optional C extension, pathconfig/speedups (ext/pathconfig/speedups.c):
  # PathConfiguration#properties itself, its three calls into the library
  # (resolve, the answer's id, release) and the read of the kept answer in
  # one C function; the typed accessors and raw getters of Properties (a
  # kept value read in C); the typed readers
  # a Properties calls the first time a typed key is read; and the rule
  # trampolines, which stop a throw or Thread#kill before it unwinds through
  # the library (Rules::PREDICATE). `gem install`
  # builds it where Ruby's headers and a C compiler are present; without
  # it, or with PATHCONFIG_PURE_RUBY set to anything but "" or "0", the gem
  # makes the same calls through ffi, with the same answers and errors.
  # Pathconfig::SPEEDUPS says which is in use.
  #
  # The extension never links libpathconfig: it is given the addresses of
  # the functions it calls in the library ffi loaded, so both paths use the
  # same library.
  module FastPath
    ENV_VAR = "PATHCONFIG_PURE_RUBY"
    FUNCTIONS = %w[pathconfig_resolve pathconfig_result_id pathconfig_result_release
                   pathconfig_result_typed_string pathconfig_result_typed_bool pathconfig_last_error
                   pathconfig_request_fail pathconfig_release pathconfig_string_free].freeze

    module_function

    def wanted?
      ["", "0"].include?(ENV.fetch(ENV_VAR, ""))
    end

    # Loads the extension (next to this file, built in place or by `gem
    # install`, else on the load path) and binds it to the library; false
    # when it is turned off or not built.
    def load
      unless wanted? && require_extension
        Native.attach_handed(converted: false)
        return false
      end
      bind
      Speedups.define_converters(Native::NewConfiguration, Native::NewResult, Native::NewText)
      Native.attach_handed(converted: true)
      define_accessors
      define_raw_getters
      # A C method, which runs no Ruby code before it marks (speedups.c, Owned).
      ObjectSpace.define_finalizer(EXIT, Speedups.method(:mark_exiting))
      true
    end

    # Kept for good: its finalizer runs as the process exits.
    EXIT = Object.new

    def require_extension
      require_relative "speedups.so"
      true
    rescue LoadError
      begin
        require "pathconfig/speedups.so"
        true
      rescue LoadError
        false
      end
    end

    def bind
      library = Native.ffi_libraries.first
      addresses = FUNCTIONS.to_h { |name| [name, library.find_function(name).address] }
      Speedups.bind(addresses, Properties.answers, Properties)
    end

    # Makes the extension's C functions the typed accessors of Properties
    # (each an attr_reader without it, and their `?` forms): a host reads
    # them right after the lookup, and the extension keeps the values of the
    # answer it gave last, where an attr_reader of a Hash's instance variable
    # is a search of a global table (speedups.c, struct slot).
    def define_accessors
      # The extension's functions take the attr_readers' place: removed
      # first, so that `ruby -w` warns of no redefined method.
      Properties::ACCESSORS.first(Speedups::MAX_ACCESSORS).each { |name, _ivar| Properties.send(:remove_method, name) }
      made = Speedups.define_accessors(Properties, Properties::ACCESSORS.to_a)
      Properties::ACCESSORS.first(made).each do |name, _ivar|
        Properties.send(:alias_method, :"#{name}?", name) if TYPED_KEYS[name].kind == :bool
      end
    end

    # The raw getters of Properties, which the extension's C functions
    # replace: each answers a key read before from @raw at once and hands
    # every other call to the gem's getter, kept as the private
    # checked_NAME. It makes a lookup and a get_str 1.74 times as fast at
    # ten rules, 1.17 under YJIT (bench/results.md, decisions).
    def define_raw_getters
      pairs = Properties::RAW_GETTERS.map do |name|
        checked = :"checked_#{name}"
        Properties.send(:alias_method, checked, name)
        Properties.send(:private, checked)
        Properties.send(:remove_method, name)
        [name, checked]
      end
      Speedups.define_raw_getters(Properties, pairs)
    end

    # Makes the extension's C function PathConfiguration#properties, the
    # method a host calls for every URL (at ten rules a Ruby method around
    # Speedups.lookup cost about as much as the library's lookup). The
    # gem's Ruby #properties stays as the private checked_properties: the C
    # function hands it every call it does not take itself (arguments it
    # does not take as they are, other arguments, a closed configuration,
    # rules with Ruby callbacks), so errors are raised as before.
    def define_properties(klass)
      klass.send(:alias_method, :checked_properties, :properties)
      klass.send(:private, :checked_properties)
      Speedups.define_properties(klass, :checked_properties)
    end
  end

  # true when lookups and typed reads go through the C extension
  # pathconfig/speedups, false when through ffi alone (Pathconfig::FastPath).
  SPEEDUPS = FastPath.load
end
