# frozen_string_literal: true

module Pathconfig
  # Ruby strings as the library's text arguments: NUL-terminated UTF-8.
  #
  # A String in any encoding is transcoded to UTF-8 (a UTF-16 "/a/new" reaches
  # the library as "/a/new", never as "/" cut at its first zero byte). A
  # binary (ASCII-8BIT) String is taken as UTF-8 bytes. Text that is not valid
  # in its encoding, or cannot be converted, raises an EncodingError
  # (Encoding::InvalidByteSequenceError, Encoding::UndefinedConversionError)
  # naming the argument; a NUL inside raises ArgumentError, as Ruby's own
  # C-string arguments do: the library would read the string cut short there.
  # Symbols are taken as their names; anything else raises TypeError.
  module Text
    UTF_8 = Encoding::UTF_8
    US_ASCII = Encoding::US_ASCII
    BINARY = Encoding::BINARY

    module_function

    # `value` as a UTF-8 String without NUL (the same object when it already
    # is one: the lookup path allocates nothing here).
    def arg(value, what)
      value = value.to_s if value.is_a?(Symbol)
      raise TypeError, "#{what} must be a String, not #{value.class}" unless value.is_a?(String)

      encoding = value.encoding
      if (encoding == UTF_8 || encoding == US_ASCII) && value.valid_encoding?
        text = value
      else
        text = utf8(value, what)
      end
      raise ArgumentError, "#{what} contains a NUL character (the library would read it cut short there)" if text.include?("\0")

      text
    end

    # Like arg, but nil stays nil (an optional argument: NULL).
    def optional(value, what)
      value.nil? ? nil : arg(value, what)
    end

    # `value` transcoded to UTF-8, NUL bytes kept (for the functions that take
    # a length, and for JSON text).
    def utf8(value, what)
      raise TypeError, "#{what} must be a String, not #{value.class}" unless value.is_a?(String)

      encoding = value.encoding
      if encoding == BINARY || encoding == UTF_8 || encoding == US_ASCII
        text = value.encoding == UTF_8 ? value : value.dup.force_encoding(UTF_8)
        return text if text.valid_encoding?

        offset = 0
        text.each_char do |c|
          break unless c.valid_encoding?

          offset += c.bytesize
        end
        raise Encoding::InvalidByteSequenceError,
              format("%s is not valid UTF-8: byte 0x%02X at offset %d", what, text.getbyte(offset), offset)
      end
      begin
        value.encode(UTF_8)
      rescue EncodingError => e
        raise e.class, "#{what} cannot be converted from #{encoding} to UTF-8: #{e.message}"
      end
    end
  end
end
