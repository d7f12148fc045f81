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
  # text, number literals kept). Each reads a key from the library once per
  # answer and keeps the value (Strings frozen), as the typed values are kept.
  #
  # Answers are shared. The library names each distinct answer with an id
  # (pathconfig_result_id: never reused within the process), and lookups that
  # match the same rules give the same answer. The gem keeps one Properties per
  # id (the newest ANSWER_CAPACITY), made the first time the id is seen: the
  # JSON decoded and every typed value read from the library, once. A lookup
  # whose answer is known costs the library's lookup and one Hash read (in
  # one C call with the extension, Pathconfig::SPEEDUPS, which keeps the
  # latest answers and their typed values in front of the Hash), a typed
  # read one instance variable (or, with the extension, one C read for the
  # answer just looked up). A Properties holds one reference on a C result of its
  # answer, released when it is garbage-collected. It does not depend on its
  # configuration, and is safe to read from several threads.
  class Properties < Hash
    # How many answers the gem keeps (the newest).
    ANSWER_CAPACITY = 4096

    @answers = {}
    @answers_lock = Mutex.new

    # Made by PathConfiguration#properties alone: one without its answer
    # could read nothing of the library's.
    private_class_method :new, :[]

    class << self
      # The kept answers by id: read without a lock (one Hash read under the
      # GVL), changed under @answers_lock.
      attr_reader :answers

      # The Properties of a result (a reference the caller hands over: an
      # Owned, from the C extension, or an address) whose id `answer_id` was
      # not kept: made and kept, or the one another thread kept first (the
      # reference is then released).
      def adopt(handed, answer_id)
        address = Native.address_of(handed)
        json = Native.pathconfig_result_json(address)
        if json.nil?
          error = Pathconfig.last_error
          Native.give_back(handed, :pathconfig_result_release)
          raise error
        end
        json = Native.utf8(json).freeze
        props = self[JSONText.parse(json, freeze: true)]
        props.send(:bind, handed, answer_id, json)
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
      JSONText.parse(@json)
    end

    # Copies are plain Hashes. A Properties is one answer, with its JSON
    # text, its typed values and a reference on the library's result; a
    # changed copy would no longer be that answer, and one that shared the
    # reference (what Object#dup and Hash#merge would make) would read the
    # result after the garbage collector freed it. #dup and #merge give a
    # changeable Hash whose nested values stay frozen, as Hash's own do
    # (#to_h copies all the way down); #clone gives this object, frozen and
    # shared already (a changeable Hash with freeze: false); Marshal and
    # YAML (Psych) write and read what #to_h gives.
    def dup
      Hash[self]
    end

    def clone(freeze: nil)
      freeze == false ? dup : self
    end

    def merge(*others, &block)
      dup.merge!(*others, &block)
    end

    def _dump(_level)
      @json
    end

    def self._load(json)
      JSONText.parse(json)
    end

    def encode_with(coder)
      coder.represent_map(nil, to_h)
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
      ACCESSORS.include?(name) ? public_send(name) : read_typed(info)
    end

    # The raw getters' names, each also the key of its kept values in @raw.
    RAW_GETTERS = %i[get_str get_bool get_int get_float get_json].freeze

    def get_str(key)
      raw(:get_str, key) do |text|
        out = FFI::MemoryPointer.new(:pointer)
        size = FFI::MemoryPointer.new(:size_t)
        # By address and length: a string holding U+0000 is read whole.
        if getter(:pathconfig_result_get_string, text, out, size) == Native::OK
          out.read_pointer.read_bytes(size.read(:size_t)).force_encoding(Encoding::UTF_8).freeze
        end
      end
    end

    def get_bool(key)
      raw(:get_bool, key) do |text|
        out = FFI::MemoryPointer.new(:int)
        getter(:pathconfig_result_get_bool, text, out) == Native::OK ? out.read_int == 1 : nil
      end
    end

    def get_int(key)
      raw(:get_int, key) do |text|
        out = FFI::MemoryPointer.new(:int64)
        getter(:pathconfig_result_get_int64, text, out) == Native::OK ? out.read_int64 : nil
      end
    end

    def get_float(key)
      raw(:get_float, key) do |text|
        out = FFI::MemoryPointer.new(:double)
        getter(:pathconfig_result_get_double, text, out) == Native::OK ? out.read_double : nil
      end
    end

    def get_json(key)
      raw(:get_json, key) do |text|
        out = FFI::MemoryPointer.new(:pointer)
        getter(:pathconfig_result_get_json, text, out) == Native::OK ? Native.borrowed_text(out.read_pointer).freeze : nil
      end
    end

    private

    def bind(handed, answer_id, json)
      address = Native.address_of(handed)
      @_result = address
      @answer_id = answer_id
      @json = json
      @raw = {}
      keep_typed_values
      # Given back when this object goes (see PathConfiguration#own): by
      # the Owned the C extension made as the library's call returned (its
      # lookup and Native::NewResult), else by a finalizer.
      if handed.is_a?(Integer)
        ObjectSpace.define_finalizer(self, self.class.releaser(address))
      else
        @_owner = handed
      end
      freeze
    end

    # What the raw getter `getter` (its name; its block reads the library)
    # gives for `key`: read the first time and kept in @raw[getter], as the
    # typed values are; a key the answer lacks is nil without a call (the
    # Hash's keys are the answer's). Only keys of this answer are kept, so
    # what is kept stays bounded whatever keys are asked for. (With the C
    # extension each getter reads @raw itself first: FastPath.define_raw_getters.)
    def raw(getter, key)
      kept = (@raw[getter] ||= {})
      found = kept.fetch(key, UNREAD)
      return found unless UNREAD.equal?(found)

      text = Text.arg(key, "key")
      return nil unless key?(text)

      kept[key] = yield(text)
    end

    UNREAD = Object.new.freeze
    private_constant :UNREAD

    def getter(function, text, *outs)
      status = Native.public_send(function, @_result, text, *outs)
      return status if [Native::OK, Native::NOT_FOUND, Native::E_TYPE].include?(status)

      raise Pathconfig.last_error
    end

    # The typed value of `info`'s key, read from the library; raises what the
    # read fails with (a crash of the app: ConfigError, E_CRASH).
    def read_typed(info)
      index = info.index
      if info.kind == :bool
        value = SPEEDUPS ? Speedups.typed_bool(@_result, index) : self.class.ffi_typed_bool(@_result, index)
        raise Pathconfig.last_error if value.nil?
      else
        value = SPEEDUPS ? Speedups.typed_string(@_result, index) : self.class.ffi_typed_string(@_result, index)
        raise Pathconfig.last_error if value == false
      end
      value
    end

    # Reads every typed key with an accessor once, when the answer is new,
    # and keeps each value in the instance variable its accessor reads. A key
    # whose read fails (a crash of the app) keeps nothing: this answer's
    # accessor for it reads it again, and raises, every time.
    def keep_typed_values
      ACCESSORS.each do |name, ivar|
        info = TYPED_KEYS[name]
        begin
          instance_variable_set(ivar, read_typed(info))
        rescue Error
          reader = -> { read_typed(info) }
          define_singleton_method(name, &reader)
          define_singleton_method(:"#{name}?", &reader) if info.kind == :bool
        end
      end
    end

    class << self
      # pathconfig_result_typed_bool through ffi, as Speedups.typed_bool
      # answers: true or false, nil when the read failed.
      def ffi_typed_bool(address, index)
        v = Native.pathconfig_result_typed_bool(address, index)
        return nil if v.zero? && Native.last_code != 0

        v == 1
      end

      # pathconfig_result_typed_string through ffi, as Speedups.typed_string
      # answers: a frozen UTF-8 String, nil (no value, no default), false
      # when the read failed.
      def ffi_typed_string(address, index)
        v = Native.pathconfig_result_typed_string(address, index)
        return Native.last_code.zero? ? nil : false if v.nil?

        v.force_encoding(Encoding::UTF_8).freeze
      end
    end

    # The typed keys with an accessor (each of the library's typed keys whose
    # name is a method name that Hash does not have), and the instance
    # variable that keeps its value: each accessor is an attr_reader (the C
    # extension's function reading that variable, when it is in use).
    ACCESSORS = TYPED_KEYS.each_key.filter_map do |name|
      next unless name.match?(/\A[a-z][a-z0-9_]*\z/) && !method_defined?(name) && !private_method_defined?(name)

      [name, :"@#{name}"]
    end.to_h.freeze

    public

    ACCESSORS.each do |name, _ivar|
      attr_reader name
      alias_method "#{name}?", name if TYPED_KEYS[name].kind == :bool
    end
  end
end
