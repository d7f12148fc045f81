# frozen_string_literal: true

require "json"

module Pathconfig
  # The merged properties of one URL, from PathConfiguration#properties: a
  # frozen Hash of String keys to the values as the configuration wrote them,
  # with their JSON types (String, Integer, Float, true/false, nil, and frozen
  # Arrays and Hashes), in the order the keys first appeared in the matching
  # rules. Being a Hash it is what ==, JSON.generate, each, dig and every
  # Hash reader take; changing it raises FrozenError, because every lookup
  # with the same answer returns this same object. #to_h gives a plain,
  # changeable deep copy.
  #
  # #json is the library's JSON text, and #to_s is that text (puts shows it,
  # as print does in every host).
  #
  # The typed accessors (#context, #presentation, ..., #pull_to_refresh_enabled,
  # ...), one per key of Pathconfig::TYPED_KEYS, read the well-known keys as
  # the configuration's profile reads them: defaults apply when a key is
  # missing, mistyped or unknown, Android profiles read enumerations
  # case-insensitively. A bool key's accessor gives true or false (and has a
  # `?` form). #typed reads any typed key by name. A read the profile's app
  # crashes on raises ConfigError (E_CRASH) every time.
  #
  # The raw getters, named for the Ruby type they give (as Python's are for
  # its types): #get_str, #get_bool, #get_int, #get_float (nil when the key
  # is absent or holds another JSON type) and #get_json (any value as JSON
  # text, number literals kept).
  #
  # Answers are shared. The library names each distinct answer with an id
  # (pathconfig_result_id: never reused within the process), and lookups that
  # match the same rules give the same answer. The gem keeps one Properties per
  # id (the newest ANSWER_CAPACITY), made the first time the id is seen: the
  # JSON decoded once, each typed value read from the library the first time
  # it is asked for. A lookup whose answer is known costs the library's lookup
  # and one Hash read. A Properties holds one reference on a C result of its
  # answer, released when it is garbage-collected. It does not depend on its
  # configuration, and is safe to read from several threads.
  class Properties < Hash
    # How many answers the gem keeps (the newest).
    ANSWER_CAPACITY = 4096

    @answers = {}
    @answers_lock = Mutex.new

    class << self
      # The kept answers by id: read without a lock (one Hash read under the
      # GVL), changed under @answers_lock.
      attr_reader :answers

      # The Properties of the result at `address` (a reference the caller
      # hands over) whose id `answer_id` was not kept: made and kept, or the
      # one another thread kept first (the reference is then released).
      def adopt(address, answer_id)
        json = Native.pathconfig_result_json(address)
        if json.nil?
          error = Pathconfig.last_error
          Native.pathconfig_result_release(address)
          raise error
        end
        json = Native.utf8(json).freeze
        props = self[JSON.parse(json, freeze: true)]
        props.send(:bind, address, answer_id, json)
        @answers_lock.synchronize do
          kept = @answers[answer_id]
          return kept if kept

          @answers[answer_id] = props
          @answers.shift while @answers.size > ANSWER_CAPACITY
        end
        props
      end

      # A proc for ObjectSpace.define_finalizer that captures only the address.
      def releaser(address)
        proc { Native.pathconfig_result_release(address) }
      end
    end

    # The answer's id (pathconfig_result_id).
    attr_reader :answer_id
    # The merged properties as compact JSON text, exactly as the library writes
    # them (key order and number literals kept).
    attr_reader :json

    def to_s
      @json
    end

    def to_json(*)
      @json
    end

    def inspect
      "#<Pathconfig::Properties #{super}>"
    end

    # A plain, changeable copy, all the way down.
    def to_h
      JSON.parse(@json)
    end

    # The typed value of `key` (any key of Pathconfig::TYPED_KEYS, String or
    # Symbol): true/false for a bool key, else a String or nil. Another key
    # raises ConfigError (E_ARGUMENT) listing the library's typed keys.
    def typed(key)
      name = key.to_s
      info = TYPED_KEYS[name]
      unless info
        raise ConfigError.new("#{name.inspect} is not a typed key; the library's typed keys are " \
                              "#{TYPED_KEYS.keys.join(', ')}", ErrorCode::E_ARGUMENT)
      end
      typed_value(info)
    end

    def get_str(key)
      out = FFI::MemoryPointer.new(:pointer)
      size = FFI::MemoryPointer.new(:size_t)
      return nil unless getter(:pathconfig_result_get_string, key, out, size) == Native::OK

      # By address and length: a string holding U+0000 is read whole.
      out.read_pointer.read_bytes(size.read(:size_t)).force_encoding(Encoding::UTF_8)
    end

    def get_bool(key)
      out = FFI::MemoryPointer.new(:int)
      getter(:pathconfig_result_get_bool, key, out) == Native::OK ? out.read_int == 1 : nil
    end

    def get_int(key)
      out = FFI::MemoryPointer.new(:int64)
      getter(:pathconfig_result_get_int64, key, out) == Native::OK ? out.read_int64 : nil
    end

    def get_float(key)
      out = FFI::MemoryPointer.new(:double)
      getter(:pathconfig_result_get_double, key, out) == Native::OK ? out.read_double : nil
    end

    def get_json(key)
      out = FFI::MemoryPointer.new(:pointer)
      getter(:pathconfig_result_get_json, key, out) == Native::OK ? Native.borrowed_text(out.read_pointer) : nil
    end

    private

    def bind(address, answer_id, json)
      @address = address
      @answer_id = answer_id
      @json = json
      @typed = {}
      ObjectSpace.define_finalizer(self, self.class.releaser(address))
      freeze
    end

    def getter(function, key, *outs)
      status = Native.public_send(function, @address, Text.arg(key, "key"), *outs)
      return status if [Native::OK, Native::NOT_FOUND, Native::E_TYPE].include?(status)

      raise Pathconfig.last_error
    end

    # The typed value from the library, kept on this answer once read (a
    # crash of the app is raised every time, never kept).
    def typed_value(info)
      @typed.fetch(info.name) do
        value = if info.kind == :bool
                  v = Native.pathconfig_result_typed_bool(@address, info.index)
                  raise Pathconfig.last_error if v.zero? && Native.last_code != 0

                  v == 1
                else
                  v = Native.pathconfig_result_typed_string(@address, info.index)
                  raise Pathconfig.last_error if v.nil? && Native.last_code != 0

                  v&.force_encoding(Encoding::UTF_8)&.freeze
                end
        @typed[info.name] = value
      end
    end

    # One accessor per typed key of the library's catalog.
    TYPED_KEYS.each_value do |info|
      next unless info.name.match?(/\A[a-z_][a-z0-9_]*\z/) && !method_defined?(info.name)

      class_eval <<~RUBY, __FILE__, __LINE__ + 1
        def #{info.name}
          @typed.fetch(#{info.name.inspect}) { typed_value(TYPED_KEYS[#{info.name.inspect}]) }
        end
      RUBY
      alias_method "#{info.name}?", info.name if info.kind == :bool
    end
  end
end
