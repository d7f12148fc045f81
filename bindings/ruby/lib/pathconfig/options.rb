# frozen_string_literal: true

require "json"

module Pathconfig
  # The load options (include/pathconfig/config.h, "Loading") as the
  # options_json argument: only the options given, checked for type here; the
  # library checks the values and applies its own defaults for the rest.
  module Options
    STRINGS = %i[profile backend base_url merge].freeze
    INTEGERS = %i[result_cache_size max_url_bytes].freeze
    KEYS = (STRINGS + INTEGERS + %i[match_query_strings lenient]).freeze

    module_function

    # A Hash of the options given (nil values left out).
    def load_options(options)
      unknown = options.keys - KEYS
      raise ArgumentError, "unknown option#{'s' if unknown.size > 1}: #{unknown.join(', ')}" unless unknown.empty?

      out = {}
      options.each do |key, value|
        next if value.nil?

        if STRINGS.include?(key)
          value = value.to_s if value.is_a?(Symbol)
          raise TypeError, "#{key} must be a String or nil, not #{value.class}" unless value.is_a?(String)

          out[key] = Text.arg(value, key.to_s)
        elsif INTEGERS.include?(key)
          raise TypeError, "#{key} must be an Integer or nil, not #{value.class}" unless value.is_a?(Integer)

          out[key] = value
        else
          raise TypeError, "#{key} must be true, false or nil, not #{value.class}" unless [true, false].include?(value)

          out[key] = value
        end
      end
      out
    end

    # JSON in ASCII: a NUL or any character travels escaped.
    def json(options)
      JSONText.generate(options, ascii_only: true)
    end
  end
end
