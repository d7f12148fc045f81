# frozen_string_literal: true

module Pathconfig
  # Something a load noticed but accepted (pathconfig_warning): a duplicate
  # key, a pattern a lenient load skipped, settings ignored, a rule the app
  # does not read. kind is the library's name for it ("duplicate-key", ...);
  # line, column, rule_index, pattern_index are nil where they do not apply.
  # to_s is "LINE:COLUMN: MESSAGE" when it has a position (the library never
  # prints warnings).
  ConfigWarning = Struct.new(:kind, :message, :line, :column, :rule_index, :pattern_index, keyword_init: true) do
    def to_s
      line ? "#{line}:#{column}: #{message}" : message
    end

    # Every warning of the configuration at `address` (held by the caller),
    # copied while it is held: the messages are borrowed from it.
    def self.read_all(address)
      Array.new(Native.pathconfig_warning_count(address)) do |i|
        w = Native::WarningStruct.new
        w[:version] = Native::WARNING_VERSION
        raise Pathconfig.last_error unless Native.pathconfig_warning_get(address, i, w) == Native::OK

        new(kind: Pathconfig.warning_kind_name(w[:kind]).freeze,
            message: Native.borrowed_text(w[:message]).freeze,
            line: w[:line].positive? ? w[:line] : nil,
            column: w[:line].positive? ? w[:column] : nil,
            rule_index: w[:rule_index] >= 0 ? w[:rule_index] : nil,
            pattern_index: w[:pattern_index] >= 0 ? w[:pattern_index] : nil).freeze
      end.freeze
    end
  end
end
