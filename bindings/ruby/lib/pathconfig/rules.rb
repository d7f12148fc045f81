# frozen_string_literal: true

require "json"

module Pathconfig
  # The lookup a rule's predicate or configurer is called for: its url (as a
  # request would be made, see pathconfig_request_url) and method (upper-cased).
  # to_s is "METHOD URL".
  #
  # In a configurer its setters change the properties merged so far, through
  # the library's setters: each takes a value, never JSON text, so a value such
  # as 'abc", "X-Admin": "true' is stored as that string. They are named for the
  # Ruby type they take: set_str, set_int, set_float, set_bool; set_header sets
  # one HTTP header under "headers"; remove removes a key; set_properties
  # replaces them all with a Hash and merge_properties applies one as a JSON
  # Merge Patch. Called from a predicate they raise MisuseError (the library's
  # E_MISUSE); called after the callback returned, MisuseError too.
  class Request
    attr_reader :url, :method

    def initialize(pointer)
      @pointer = pointer
      @url = Native.utf8(Native.pathconfig_request_url(pointer)).freeze
      @method = Native.utf8(Native.pathconfig_request_method(pointer)).freeze
    end

    def to_s
      "#{@method} #{@url}"
    end

    def ==(other)
      other.is_a?(Request) && other.url == url && other.method == method
    end

    # The properties merged so far, every change made so far included, as a
    # new Hash (configurer only: a predicate gets MisuseError).
    def properties
      JSONText.parse(Native.utf8(Native.pathconfig_request_properties(live)) || raise(Pathconfig.last_error))
    end

    def set_str(key, value)
      call(:pathconfig_request_set_string, Text.arg(key, "key"), Text.arg(value, "value"))
    end

    def set_int(key, value)
      raise TypeError, "value must be an Integer, not #{value.class} (set_bool sets a boolean)" unless value.is_a?(Integer)
      raise RangeError, "value #{value} does not fit in 64 bits" unless value.between?(-2**63, 2**63 - 1)

      call(:pathconfig_request_set_int64, Text.arg(key, "key"), value)
    end

    def set_float(key, value)
      raise TypeError, "value must be a Float, not #{value.class}" unless value.is_a?(Numeric)

      call(:pathconfig_request_set_double, Text.arg(key, "key"), value.to_f)
    end

    def set_bool(key, value)
      raise TypeError, "value must be true or false, not #{value.class}" unless [true, false].include?(value)

      call(:pathconfig_request_set_bool, Text.arg(key, "key"), value ? 1 : 0)
    end

    def set_header(name, value)
      call(:pathconfig_request_set_header, Text.arg(name, "name"), Text.arg(value, "value"))
    end

    def remove(key)
      call(:pathconfig_request_remove, Text.arg(key, "key"))
    end

    def set_properties(properties)
      raise TypeError, "properties must be a Hash, not #{properties.class}" unless properties.is_a?(Hash)

      call(:pathconfig_request_set_properties, Rules.json_arg(properties))
    end

    def merge_properties(patch)
      raise TypeError, "patch must be a Hash, not #{patch.class}" unless patch.is_a?(Hash)

      call(:pathconfig_request_merge_properties, Rules.json_arg(patch))
    end

    # Ends the request: the C request is only borrowed for the callback.
    def end!
      @pointer = nil
    end

    private

    def live
      @pointer or raise MisuseError.new("a Request changes properties only while its rule's configurer runs",
                                        ErrorCode::E_MISUSE)
    end

    def call(function, *args)
      Native.public_send(function, live, *args) == Native::OK or raise Pathconfig.last_error
      nil
    end
  end

  # Rules added from code: the rule as JSON, the trampolines, and how a
  # callable's exception reaches the lookup that ran it.
  #
  # The trampolines. Rules.add holds the rule's callables with
  # Callbacks.hold and passes the key as the rule's context, with
  # Callbacks::FREE as its free_context: the library calls that once the
  # configuration is freed, and only then are the callables dropped. The two
  # C function pointers PREDICATE and CONFIGURER are made once.
  #
  # Exceptions. None crosses into C: a trampoline rescues whatever the
  # callable raises (Exception), keeps it in a fiber-local slot, tells the
  # library why with pathconfig_request_fail and returns -1. The lookup then
  # fails with E_CALLBACK and memoises nothing; guard_lookup raises the kept
  # exception in its place, with the library's CallbackError as its cause.
  #
  # What no rescue catches (a throw: Timeout.timeout without a class on
  # Ruby 3.1 and 3.2; Thread#kill) is stopped by the C extension's
  # trampolines, which PREDICATE and CONFIGURER are with it: the request
  # fails, and the lookup resumes the throw or kill once the library has
  # returned (Speedups.lookup, Speedups.resume). Through ffi alone it
  # unwinds through the library's frames, leaking what they held.
  module Rules
    HostRule = Struct.new(:predicate, :configurer)
    SLOT = :__pathconfig_callback_failure

    module_function

    def json_arg(value)
      JSONText.generate(value, ascii_only: true, allow_nan: false)
    rescue JSON::GeneratorError => e
      raise ArgumentError, "not representable as JSON: #{e.message}"
    end

    def strings(value, what)
      return nil if value.nil?
      raise TypeError, "#{what} must be an Array of Strings, not #{value.class}" unless value.is_a?(Array)

      value.map do |item|
        raise TypeError, "#{what} must hold Strings, not #{item.class}" unless item.is_a?(String)

        Text.arg(item, what)
      end
    end

    def rule_json(patterns:, globs:, methods:, properties:, description:)
      rule = {}
      { "patterns" => patterns, "globs" => globs, "methods" => methods }.each do |key, value|
        list = strings(value, key)
        rule[key] = list if list
      end
      unless properties.nil?
        raise TypeError, "properties must be a Hash, not #{properties.class}" unless properties.is_a?(Hash)

        rule["properties"] = properties
      end
      rule["description"] = Text.arg(description, "description") unless description.nil?
      json_arg(rule)
    end

    def add(address, rule, predicate, configurer)
      { "predicate" => predicate, "configurer" => configurer }.each do |name, value|
        raise TypeError, "#{name} must respond to call, not #{value.class}" unless value.nil? || value.respond_to?(:call)
      end
      err = Native::ErrorStruct.new
      index = FFI::MemoryPointer.new(:size_t)
      if predicate.nil? && configurer.nil?
        status = Native.pathconfig_add_rule(address, rule, nil, nil, nil, nil, index, err)
      else
        key = Callbacks.hold(HostRule.new(predicate, configurer))
        # On failure the library has called FREE already (free_context runs
        # "before this function returns if it fails").
        status = Native.pathconfig_add_rule(address, rule, predicate && PREDICATE, configurer && CONFIGURER,
                                            key, Callbacks::FREE, index, err)
      end
      raise Pathconfig.error_from(err) unless status == Native::OK

      index.read(:size_t)
    end

    # Runs a callback body; anything it raises is kept for the lookup and
    # reported to the library as a failure (-1).
    def run(context, pointer)
      request = Request.new(pointer)
      yield Callbacks.held(context), request
    rescue Exception => e # rubocop:disable Lint/RescueException -- nothing may unwind into C
      Thread.current[SLOT] = e
      text = begin
        "#{e.class}: #{e.message}"
      rescue StandardError
        e.class.name.to_s
      end
      Native.pathconfig_request_fail(pointer, text.encode(Encoding::UTF_8, invalid: :replace, undef: :replace).delete("\0"))
      -1
    ensure
      request&.end!
    end

    def configure(rule, request)
      properties = request.properties
      given = json_arg(properties)
      returned = rule.configurer.call(request, properties)
      if returned.is_a?(Hash) && !returned.equal?(properties)
        request.set_properties(returned)
      else
        text = json_arg(properties)
        request.set_properties(properties) if text != given
      end
      0
    end

    # A rule's predicate (kind :predicate) or configurer (:configurer) for
    # the library's request; context and request are pointers (Integer
    # addresses from the C extension's trampolines).
    def run_rule(kind, context, request)
      context = FFI::Pointer.new(context) if context.is_a?(Integer)
      request = FFI::Pointer.new(request) if request.is_a?(Integer)
      if kind == :predicate
        run(context, request) { |rule, req| rule.predicate.call(req) ? 1 : 0 }
      else
        run(context, request) { |rule, req| configure(rule, req) }
      end
    end

    # The C function pointers of every rule's callables, made once.
    PREDICATE, CONFIGURER =
      if SPEEDUPS
        Speedups.trampolines(self).map { |address| FFI::Pointer.new(address) }
      else
        %i[predicate configurer].map do |kind|
          FFI::Function.new(:int, %i[pointer pointer]) { |context, request| Rules.run_rule(kind, context, request) }
        end
      end

    # Around a lookup: a CallbackError caused by a Ruby callable becomes that
    # callable's own exception (its cause the CallbackError).
    def guard_lookup
      Thread.current[SLOT] = nil
      yield
    rescue CallbackError => e
      original = Thread.current[SLOT]
      raise unless original

      Thread.current[SLOT] = nil
      raise original, cause: e
    ensure
      Thread.current[SLOT] = nil
    end
  end
end
