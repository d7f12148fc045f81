# frozen_string_literal: true

require "ffi"
require_relative "library"

module Pathconfig
  # The C API of include/pathconfig.h, declared once, through ffi.
  #
  # Conventions of these declarations (the header's "CONVENTIONS"):
  # - Handles travel as addresses (`:uintptr_t`, an Integer) on the lookup
  #   path, so that a lookup allocates no FFI::Pointer: pathconfig_resolve,
  #   pathconfig_result_*, pathconfig_release take and give plain Integers
  #   (0 for NULL). Loader and request handles are FFI::Pointer.
  # - What a call hands its caller to free comes back through a converter
  #   (NewConfiguration, NewResult, NewText, below): with the C extension,
  #   an Owned made in C as the call returns (or the text, freed); through
  #   ffi alone, the address. Every `char *` the caller owns
  #   (pathconfig_explain, pathconfig_matched_string,
  #   pathconfig_loader_cache_file) is read with Native.owned_text; never
  #   declared `:string`, which would leak it.
  # - Borrowed `const char *` are declared `:string` (ffi copies them before
  #   anything can free them) or `:pointer` where the length matters.
  # - The loader's calls that may wait (load, refresh, free, set_callback)
  #   are `blocking: true`: the GVL is released for their duration, so a
  #   loader callback arriving on another thread (ffi runs it on a Ruby
  #   thread of its own) can run meanwhile.
  module Native
    extend FFI::Library

    # The header this module mirrors (PATHCONFIG_VERSION and
    # PATHCONFIG_VERSION_NUMBER of include/pathconfig/common.h).
    HEADER_VERSION = "1.1.0"
    HEADER_VERSION_NUMBER = 1001000

    OK = 0
    NOT_FOUND = 100
    E_TYPE = 11
    WARNING_VERSION = 1
    LOADER_EVENT_VERSION = 1

    LIBRARY_PATH = Library.locate
    ffi_lib LIBRARY_PATH

    # struct pathconfig_error, field for field (fixed for a MAJOR version).
    class ErrorStruct < FFI::Struct
      layout :code, :int,
             :line, :int,
             :column, :int,
             :message, [:char, 512],
             :rule_index, :int,
             :pattern_index, :int,
             :os_error, :int
    end

    # struct pathconfig_warning, version 1. The caller sets version;
    # message is borrowed from the configuration.
    class WarningStruct < FFI::Struct
      layout :version, :int,
             :kind, :int,
             :line, :int,
             :column, :int,
             :rule_index, :int,
             :pattern_index, :int,
             :message, :pointer
    end

    # struct pathconfig_loader_event, version 1 (only ever grows at its end).
    # Borrowed for the callback call: copy what you keep.
    class LoaderEventStruct < FFI::Struct
      layout :version, :int,
             :kind, :int,
             :source_kind, :int,
             :source_index, :int,
             :byte_count, :int64,
             :http_status, :int,
             :reason, :int,
             :location, :pointer,
             :url, :pointer,
             :error, :pointer,
             :configuration, :pointer,
             :description, :pointer
    end

    # The calls that hand their caller something to free (a CONSTRUCTOR's
    # configuration or result, a `char *`), attached by FastPath.load, their
    # result types by the mode (attach_handed).
    HANDED = {
      pathconfig_load_json: [%i[pointer size_t string pointer], :NewConfiguration],
      pathconfig_load_file: [%i[string string pointer], :NewConfiguration],
      pathconfig_retain: [[:uintptr_t], :NewConfiguration],
      pathconfig_resolve: [%i[uintptr_t string string pointer], :NewResult],
      pathconfig_explain: [%i[uintptr_t string string pointer], :NewText],
      pathconfig_matched_string: [%i[uintptr_t string pointer], :NewText],
      pathconfig_result_retain: [[:uintptr_t], :NewResult],
      pathconfig_loader_current: [[:pointer], :NewConfiguration],
      pathconfig_loader_cache_file: [%i[pointer string], :NewText]
    }.freeze

    # Their converters. ffi converts a result as the call returns, before
    # its method returns, which is where Ruby runs a pending signal handler
    # (Ctrl-C's Interrupt, a trap that raises). With the C extension, each
    # from_native is C (speedups.c, "Owned from the return"): an Owned, or
    # nil for NULL; the text as a String, freed.
    %i[NewConfiguration NewResult NewText].each do |name|
      const_set(name, Module.new do
        extend FFI::DataConverter
        native_type FFI.find_type(:uintptr_t)
      end)
    end

    # Attaches the HANDED calls: with their converters (`converted`, with
    # the C extension), else returning the address, an Integer (0 for NULL),
    # which a handler that raises as the call returns can still lose (the
    # README says so): a converter of Ruby's would only add its cost, 0.06
    # to 0.15 µs a lookup through ffi.
    def self.attach_handed(converted:)
      HANDED.each do |name, (arguments, converter)|
        attach_function name, arguments, converted ? const_get(converter) : :uintptr_t
      end
    end

    callback :loader_callback, %i[pointer pointer], :void
    callback :payload_free, [:pointer], :void
    callback :rule_fn, %i[pointer pointer], :int

    # common.h
    attach_function :pathconfig_version, [], :string
    attach_function :pathconfig_version_number, [], :int
    attach_function :pathconfig_last_error, [], :pointer
    attach_function :pathconfig_error_name, [:int], :string
    attach_function :pathconfig_string_free, [:pointer], :void
    # config.h: loading
    attach_function :pathconfig_release, [:uintptr_t], :void
    # config.h: resolving, inspecting
    attach_function :pathconfig_settings, [:uintptr_t], :string
    attach_function :pathconfig_options, [:uintptr_t], :string
    attach_function :pathconfig_warning_count, [:uintptr_t], :size_t
    attach_function :pathconfig_warning_get, %i[uintptr_t size_t pointer], :int
    attach_function :pathconfig_warning_kind_name, [:int], :string
    attach_function :pathconfig_rule_count, [:uintptr_t], :size_t
    attach_function :pathconfig_document_rule_count, [:uintptr_t], :size_t
    # result.h
    attach_function :pathconfig_result_release, [:uintptr_t], :void
    attach_function :pathconfig_result_id, [:uintptr_t], :uint64
    attach_function :pathconfig_result_json, [:uintptr_t], :string
    attach_function :pathconfig_result_count, [:uintptr_t], :size_t
    attach_function :pathconfig_result_key, %i[uintptr_t size_t], :string
    attach_function :pathconfig_result_type, %i[uintptr_t size_t], :int
    attach_function :pathconfig_result_get_string, %i[uintptr_t string pointer pointer], :int
    attach_function :pathconfig_result_get_bool, %i[uintptr_t string pointer], :int
    attach_function :pathconfig_result_get_int64, %i[uintptr_t string pointer], :int
    attach_function :pathconfig_result_get_double, %i[uintptr_t string pointer], :int
    attach_function :pathconfig_result_get_json, %i[uintptr_t string pointer], :int
    attach_function :pathconfig_result_typed_string, %i[uintptr_t int], :string
    attach_function :pathconfig_result_typed_bool, %i[uintptr_t int], :int
    # catalog.h
    attach_function :pathconfig_profile_count, [], :size_t
    attach_function :pathconfig_profile_name, [:size_t], :string
    attach_function :pathconfig_profile_platform, [:size_t], :string
    attach_function :pathconfig_profile_release_count, [:size_t], :size_t
    attach_function :pathconfig_profile_release_name, %i[size_t size_t], :string
    attach_function :pathconfig_profile_release_tags, %i[size_t size_t], :string
    attach_function :pathconfig_profile_release_commit, %i[size_t size_t], :string
    attach_function :pathconfig_profile_default_release, [:size_t], :size_t
    attach_function :pathconfig_backend_count, [], :size_t
    attach_function :pathconfig_backend_name, [:size_t], :string
    attach_function :pathconfig_typed_key_count, [], :size_t
    attach_function :pathconfig_typed_key_name, [:int], :string
    attach_function :pathconfig_typed_key_kind, [:int], :int
    attach_function :pathconfig_typed_key_value_count, %i[int string], :size_t
    attach_function :pathconfig_typed_key_value, %i[int string size_t], :string
    attach_function :pathconfig_typed_key_default_string, %i[int string], :string
    attach_function :pathconfig_typed_key_default_bool, %i[int string], :int
    # loader.h
    attach_function :pathconfig_loader_new, %i[string string pointer], :pointer
    attach_function :pathconfig_loader_set_callback, %i[pointer loader_callback pointer payload_free], :int,
                    blocking: true
    attach_function :pathconfig_loader_load, %i[pointer pointer], :int, blocking: true
    attach_function :pathconfig_loader_refresh, %i[pointer pointer], :int, blocking: true
    attach_function :pathconfig_loader_free, [:pointer], :void, blocking: true
    # rules.h
    attach_function :pathconfig_add_rule,
                    %i[uintptr_t string rule_fn rule_fn pointer payload_free pointer pointer], :int
    attach_function :pathconfig_invalidate, [:uintptr_t], :int
    attach_function :pathconfig_request_url, [:pointer], :string
    attach_function :pathconfig_request_method, [:pointer], :string
    attach_function :pathconfig_request_properties, [:pointer], :string
    attach_function :pathconfig_request_set_string, %i[pointer string string], :int
    attach_function :pathconfig_request_set_int64, %i[pointer string int64], :int
    attach_function :pathconfig_request_set_double, %i[pointer string double], :int
    attach_function :pathconfig_request_set_bool, %i[pointer string int], :int
    attach_function :pathconfig_request_set_header, %i[pointer string string], :int
    attach_function :pathconfig_request_remove, %i[pointer string], :int
    attach_function :pathconfig_request_set_properties, %i[pointer string], :int
    attach_function :pathconfig_request_merge_properties, %i[pointer string], :int
    attach_function :pathconfig_request_fail, %i[pointer string], :int

    module_function

    # The library must be of this header's MAJOR and at least its MINOR (the
    # header's ABI promise), as the Python binding's _check_version asks.
    def check_version!
      number = pathconfig_version_number
      major = HEADER_VERSION_NUMBER / 1_000_000
      return if number / 1_000_000 == major && number >= HEADER_VERSION_NUMBER

      raise LoadError, "libpathconfig at #{LIBRARY_PATH.inspect} is version " \
                       "#{number / 1_000_000}.#{number / 1000 % 1000}.#{number % 1000}; " \
                       "this gem needs #{HEADER_VERSION} or a later #{major}.x"
    end

    # A borrowed C string as a Ruby String in UTF-8 (the library's text is
    # UTF-8); nil for NULL.
    def utf8(text)
      text&.force_encoding(Encoding::UTF_8)
    end

    # The text of an owned `char *` as NewText gave it: the String itself
    # with the C extension, else read from the address and freed at once
    # with pathconfig_string_free; nil for NULL.
    def owned_text(text)
      return text if text.nil? || text.is_a?(String)
      return nil if text.zero?

      pointer = FFI::Pointer.new(text)
      begin
        pointer.read_string.force_encoding(Encoding::UTF_8)
      ensure
        pathconfig_string_free(pointer)
      end
    end

    # The address a NewConfiguration or NewResult gave (an Owned's, or the
    # Integer itself), 0 for NULL.
    def address_of(handed)
      handed.is_a?(Integer) ? handed : (handed&.address || 0)
    end

    # Gives back the reference a NewConfiguration (release:
    # :pathconfig_release) or NewResult (:pathconfig_result_release) gave.
    def give_back(handed, release)
      handed.is_a?(Integer) ? public_send(release, handed) : handed&.release
    end

    # The text a borrowed `const char *` field points to (a struct's), or nil.
    def borrowed_text(pointer)
      pointer.null? ? nil : pointer.read_string.force_encoding(Encoding::UTF_8)
    end

    # The calling thread's last error, as a copy.
    def last_error_struct
      ErrorStruct.new(pathconfig_last_error)
    end

    def last_code
      pathconfig_last_error.read_int
    end
  end

  Native.check_version!
end
