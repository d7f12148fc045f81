# frozen_string_literal: true

require "json"

module Pathconfig
  # A loaded path configuration, safe to share between threads. Its document
  # never changes; rules added from code (#add_rule) join the end of its rules.
  #
  # Make one with PathConfiguration.from_file or .from_json; the options are
  # keywords:
  #
  # profile:: whose reading of the file to reproduce: one of PROFILES
  #           ("hotwire-ios" by default), or "APP@VERSION", any tag of the
  #           app ("hotwire-ios@1.2.2") or "APP@main". The library checks the
  #           name: an unknown one raises ConfigError (E_OPTIONS), its message
  #           listing the app's releases.
  # match_query_strings:: append "?query" to URL paths before matching; nil
  #                       (default) takes the profile's default.
  # backend:: the regex engine, one of BACKENDS.
  # lenient:: skip invalid patterns with a warning instead of failing.
  # base_url:: an absolute URL relative globs and inputs without a scheme
  #            resolve against.
  # merge:: "shallow" (default) or "deep" (JSON Merge Patch).
  # result_cache_size:: entries of the per-lookup result cache (0 turns it off).
  # max_url_bytes:: the longest URL a lookup takes, in bytes.
  #
  # Failures raise ConfigError (code, line, column, rule_index, pattern_index,
  # path); a file that cannot be read raises FileError (errno). Given a block,
  # from_file and from_json yield the configuration and close it after.
  #
  # The C handle is released by #close, or when the object is
  # garbage-collected; any use after close raises ClosedError. Properties
  # already returned stay valid.
  class PathConfiguration
    include HandleOwner

    class << self
      def from_file(path, **options, &block)
        path = path.to_path if path.respond_to?(:to_path)
        c_path = Text.arg(path, "path")
        options_json = Options.json(Options.load_options(options))
        err = Native::ErrorStruct.new
        handed = Native.pathconfig_load_file(c_path, options_json, err)
        raise Pathconfig.error_from(err, path: path) if Native.address_of(handed).zero?

        wrap(handed, &block)
      end

      # Loads a configuration from JSON text, in any encoding (transcoded to
      # UTF-8; a binary String is read as UTF-8 bytes). The whole String is
      # read, NUL bytes included, so a NUL is reported as a JSON error.
      def from_json(text, **options, &block)
        data = Text.utf8(text, "text")
        options_json = Options.json(Options.load_options(options))
        err = Native::ErrorStruct.new
        handed = Native.pathconfig_load_json(data, data.bytesize, options_json, err)
        raise Pathconfig.error_from(err) if Native.address_of(handed).zero?

        wrap(handed, &block)
      end

      # A PathConfiguration owning one reference on a configuration (the
      # caller hands it over): at an address, or as a NewConfiguration gave it.
      def wrap(handed)
        config = allocate
        config.send(:own, handed)
        return config unless block_given?

        begin
          yield config
        ensure
          config.close
        end
      end

      def releaser(handle)
        proc do
          address = handle[0]
          handle[0] = 0
          Native.pathconfig_release(address) unless address.zero?
        end
      end
    end

    private_class_method :new

    # --- lookups --------------------------------------------------------------
    #
    # method: is the request's HTTP method (nil: GET); rules whose "methods"
    # leave it out do not apply. When a predicate or configurer raises, the
    # lookup raises that exception (its cause the library's CallbackError).

    # The merged properties of every rule matching `url` (an absolute URL or
    # a path) for a `method` request: a frozen Properties (a Hash), one per
    # distinct answer.
    #
    # With the C extension (Pathconfig::SPEEDUPS) this method is the
    # extension's (FastPath.define_properties): a url and method it takes as
    # they are (UTF-8 or US-ASCII Strings, valid, without NUL) on an open
    # configuration without Ruby callbacks are looked up there, in one C
    # call; everything else comes here, as checked_properties.
    def properties(url, method: nil)
      url = Text.arg(url, "url")
      method = Text.arg(method, "method") unless method.nil?
      return Rules.guard_lookup { held { |address| look_up(address, url, method) } } if @host_rules

      # Without Ruby callbacks nothing below yields the GVL between reading
      # the address and the library's call, so close cannot release it there.
      address = @address
      raise closed_error if address.zero?

      look_up(address, url, method)
    end

    # The merged properties of `url` as compact JSON text.
    def properties_json(url, method: nil)
      properties(url, method: method).json
    end

    # Why `url` resolves as it does for a `method` request, as
    # `pathconfig explain` prints it: a Hash with "input", "method", "url",
    # "matched_string", "rules" (each with "index" and the "pattern" and
    # "pattern_index", "glob" or "predicate" that matched, "description",
    # "builtin", "from_code" where they apply), "properties", and
    # "limit_exceeded" when a search ran out of its match budget.
    def explain(url, method: nil)
      url = Text.arg(url, "url")
      method = Text.arg(method, "method") unless method.nil?
      err = Native::ErrorStruct.new
      text = Rules.guard_lookup do
        held do |address|
          pointer = Native.pathconfig_explain(address, url, method, err)
          Speedups.resume if SPEEDUPS
          Native.owned_text(pointer) or raise Pathconfig.error_from(err)
        end
      end
      JSONText.parse(text)
    end

    # The string the patterns see for `url` under this profile and options
    # (e.g. "/messages/new?x=1").
    def matched_string(url)
      url = Text.arg(url, "url")
      err = Native::ErrorStruct.new
      held do |address|
        Native.owned_text(Native.pathconfig_matched_string(address, url, err)) or raise Pathconfig.error_from(err)
      end
    end

    # --- rules added from code ---------------------------------------------------

    # Adds a rule at the end of the ordered rules, as Siesta's configure does,
    # and drops the memoised results; returns its index (explain reports it).
    # It matches through patterns (regexes), globs (Siesta's), a predicate, or
    # several (the predicate then refines the others); methods limits it to
    # those HTTP methods. When it applies, its fixed properties merge in, then
    # the configurer receives the Request and the properties merged so far.
    #
    # predicate:: callable(request) -> truthy when the rule applies.
    # configurer:: callable(request, properties): changes the properties
    #              through the request's typed setters (set_header, set_str,
    #              set_int, set_float, set_bool, remove, set_properties,
    #              merge_properties), or changes the Hash it receives, or
    #              returns another Hash to use instead.
    # Both run on the thread that resolves, once per method and URL until
    # #invalidate. An exception they raise is the lookup's.
    def add_rule(patterns: nil, globs: nil, methods: nil, properties: nil, description: nil,
                 predicate: nil, configurer: nil)
      rule = Rules.rule_json(patterns: patterns, globs: globs, methods: methods, properties: properties,
                             description: description)
      if predicate || configurer
        @host_rules = true
        Speedups.set_address(self, 0) if SPEEDUPS
      end
      held { |address| Rules.add(address, rule, predicate, configurer) }
    end

    # Drops every memoised result, so that the next lookup of each URL runs
    # predicates and configurers again (Siesta's invalidateConfiguration()).
    def invalidate
      held { |address| Native.pathconfig_invalidate(address) == Native::OK or raise Pathconfig.last_error }
      nil
    end

    # --- the configuration itself ---------------------------------------------------

    # The document's top-level "settings" ({} when absent), a new Hash each time.
    def settings
      @settings ||= held { |address| Native.utf8(Native.pathconfig_settings(address)) or raise Pathconfig.last_error }.freeze
      JSONText.parse(@settings)
    end

    # Every load option in effect, defaults written out (pathconfig_options),
    # a new Hash each time.
    def options
      JSONText.parse(options_text)
    end

    # The profile the configuration was loaded with, as given ("hotwire-ios",
    # "hotwire-ios@1.2.2").
    def profile
      @profile ||= JSONText.parse(options_text)["profile"].freeze
    end

    # What the load noticed but accepted: ConfigWarning objects.
    def warnings
      held { |address| ConfigWarning.read_all(address) }
    end

    # The number of rules, the profile's built-in rules (and rules from code) included.
    def rule_count
      held { |address| Native.pathconfig_rule_count(address) }
    end

    # The number of rules in the document.
    def document_rule_count
      held { |address| Native.pathconfig_document_rule_count(address) }
    end

    # Releases the C handle now (or, when a lookup running Ruby callbacks on
    # another thread is in flight, as it returns). Idempotent.
    def close
      address = @lock.synchronize do
        a = @address
        Speedups.set_address(self, 0) if SPEEDUPS
        @address = 0
        @handle[0] = 0
        a
      end
      if @owned
        @owned.release
      elsif !address.zero?
        Native.pathconfig_release(address)
      end
      nil
    end

    def closed?
      @address.zero?
    end

    def inspect
      return "#<Pathconfig::PathConfiguration (closed)>" if closed?

      "#<Pathconfig::PathConfiguration profile=#{profile.inspect} rules=#{document_rule_count}>"
    end

    # A new reference to the C configuration, for C code or another owner
    # (Loader events use it); the caller releases it.
    def retain_address
      held do |address|
        handed = Native.pathconfig_retain(address)
        handed.is_a?(Integer) ? handed : handed.take
      end
    end

    private

    def own(handed)
      address = Native.address_of(handed)
      @address = address
      @handle = [address]
      @lock = Mutex.new
      @host_rules = false
      # The address the C extension's #properties looks up in, kept in the
      # object's own struct: 0 once closed or once a rule has Ruby
      # callbacks, which only the Ruby method handles.
      Speedups.set_address(self, address) if SPEEDUPS
      # Given back when this object goes: in C with the extension (where
      # no signal's exception can strike, see speedups.c, Owned), else by a
      # finalizer.
      @owned = if !handed.is_a?(Integer)
                 handed # an Owned, since the library's call returned
               elsif SPEEDUPS
                 Speedups.own_configuration(address)
               end
      ObjectSpace.define_finalizer(self, self.class.releaser(@handle)) unless @owned
    end

    def closed_error
      ClosedError.new("operation on a closed Pathconfig::PathConfiguration")
    end

    # Yields an address holding a reference of its own for the call, so that
    # #close on another thread while the block runs Ruby code cannot free it.
    def held
      handed = @lock.synchronize do
        raise closed_error if @address.zero?

        Native.pathconfig_retain(@address)
      end
      begin
        yield Native.address_of(handed)
      ensure
        Native.give_back(handed, :pathconfig_release)
      end
    end

    def options_text
      @options_text ||= held { |address| Native.utf8(Native.pathconfig_options(address)) or raise Pathconfig.last_error }.freeze
    end

    # One lookup: the kept Properties of its answer, or a new one; through
    # the C extension when it is in use (url and method are checked).
    def look_up(address, url, method)
      if SPEEDUPS
        answer = Speedups.lookup(address, url, method)
        return answer if answer
        raise Pathconfig.last_error if answer == false
      end
      look_up_ffi(address, url, method)
    end

    # The same lookup through ffi: resolve, the answer's id, and release
    # when the answer is kept. The result is an address through ffi alone,
    # an Owned or nil with the extension (Native::NewResult).
    def look_up_ffi(address, url, method)
      result = Native.pathconfig_resolve(address, url, method, nil)
      Speedups.resume if SPEEDUPS
      owned, result = result, result&.address || 0 unless result.is_a?(Integer)
      raise Pathconfig.last_error if result.zero?

      answer_id = Native.pathconfig_result_id(result)
      known = Properties.answers[answer_id]
      if known
        owned ? owned.release : Native.pathconfig_result_release(result)
        return known
      end
      Properties.adopt(owned || result, answer_id)
    end

    FastPath.define_properties(self) if SPEEDUPS
  end
end
