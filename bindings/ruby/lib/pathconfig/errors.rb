# frozen_string_literal: true

module Pathconfig
  # The status codes of include/pathconfig/common.h (stable numbers, only ever
  # appended). Their C names come from the library (pathconfig_error_name).
  module ErrorCode
    OK = 0
    E_JSON = 1
    E_SCHEMA = 2
    E_REGEX = 3
    E_OPTIONS = 4
    E_IO = 5
    E_LIMIT = 6
    E_BACKEND = 7
    E_ARGUMENT = 8
    E_NOMEM = 9
    E_INTERNAL = 10
    E_TYPE = 11
    E_DOWNLOAD = 12
    E_CACHE = 13
    E_MISUSE = 14
    E_CALLBACK = 15
    E_URL = 16
    E_CRASH = 17
    E_FORKED = 18
  end

  # PATHCONFIG_DOWNLOAD_*: why a download failed (DownloadError#reason).
  module DownloadReason
    UNAVAILABLE = 1
    TRANSPORT = 2
    TIMEOUT = 3
    TOO_LARGE = 4
    TRUNCATED = 5
    HTTP_STATUS = 6
    NOMEM = 7
  end

  # PATHCONFIG_CACHE_*: why a cache file was ignored or not written.
  module CacheReason
    CORRUPT = 1
    UNREADABLE = 2
    UNWRITABLE = 3
  end

  # Base class of every failure the library reports.
  #
  # code:: the status code (an Integer of ErrorCode), nil for ClosedError.
  # name:: its C name from the library, e.g. "PATHCONFIG_E_JSON".
  # message:: the library's text, without the position (Exception#message
  #           adds the position where there is one, as the command prints it).
  class Error < StandardError
    attr_reader :code, :name, :detail

    def initialize(detail, code = nil, name: nil)
      @detail = detail
      @code = code
      @name = name || (code ? Native.pathconfig_error_name(code) : "closed")
      super(detail)
    end
  end

  # The configuration, its options or an argument was rejected (E_JSON ...
  # E_ARGUMENT, E_TYPE), a lookup's URL is one the profile's app crashes on
  # (E_URL), or a typed read is one the app crashes on (E_CRASH).
  #
  # line, column:: 1-based position in the document (column in Unicode
  #                scalars), nil when there is none.
  # rule_index, pattern_index:: 0-based indices of the rule and pattern at
  #                             fault, or nil.
  # path:: the file given to from_file, else nil.
  class ConfigError < Error
    attr_reader :line, :column, :rule_index, :pattern_index
    attr_accessor :path

    def initialize(detail, code, name: nil, line: nil, column: nil, rule_index: nil, pattern_index: nil, path: nil)
      @line = line
      @column = column
      @rule_index = rule_index
      @pattern_index = pattern_index
      @path = path
      super(detail, code, name: name)
    end

    # "[PATH:]LINE:COLUMN: MESSAGE" when there is a position, else the message.
    def to_s
      return detail if line.nil?

      where = [path, line, column].compact.join(":")
      "#{where}: #{detail}"
    end
  end

  # A file could not be opened or read (E_IO). errno is the library's
  # os_error; errno_class the Errno:: class Ruby itself has for it
  # (Errno::ENOENT, ...), so that `rescue Pathconfig::FileError` and a check of
  # `error.errno_class <= Errno::ENOENT` both work.
  class FileError < ConfigError
    attr_reader :errno

    def initialize(detail, code = ErrorCode::E_IO, os_error: 0, path: nil, **rest)
      @errno = os_error.positive? ? os_error : nil
      super(detail, code, path: path, **rest)
    end

    def errno_class
      @errno && SystemCallError.new(nil, @errno).class
    end

    def to_s
      detail
    end
  end

  # A PathConfiguration or Loader was used after close.
  class ClosedError < Error
    def initialize(detail)
      super(detail, nil)
    end
  end

  # The library could not allocate a string (E_NOMEM) or hit a bug (E_INTERNAL).
  class InternalError < Error; end

  # A loader's download brought no usable response (E_DOWNLOAD).
  # reason:: a DownloadReason (or nil); http_status: the status that arrived,
  # or nil; url: the server source's URL, or nil.
  class DownloadError < Error
    attr_accessor :reason, :http_status, :url
  end

  # A loader ignored a cache file or could not write one (E_CACHE); only ever
  # the error of a :warning event, never raised.
  class CacheError < Error
    attr_accessor :reason, :url, :path
  end

  # A call the object's state forbids (E_MISUSE): Loader#load or #refresh from
  # inside that loader's own on_change block, a Request setter from a
  # predicate or after its callback returned; or (E_FORKED) Loader#load or
  # #refresh in a child of fork on a loader made before the fork.
  class MisuseError < Error; end

  # A predicate or configurer of a rule added from code failed (E_CALLBACK).
  # When it was a Ruby callable, the lookup raises the callable's own
  # exception instead, with this one as its cause.
  class CallbackError < Error
    attr_reader :rule_index

    def initialize(detail, code = ErrorCode::E_CALLBACK, name: nil, rule_index: nil)
      @rule_index = rule_index
      super(detail, code, name: name)
    end
  end

  CONFIG_CODES = [ErrorCode::E_JSON, ErrorCode::E_SCHEMA, ErrorCode::E_REGEX, ErrorCode::E_OPTIONS,
                  ErrorCode::E_LIMIT, ErrorCode::E_BACKEND, ErrorCode::E_ARGUMENT, ErrorCode::E_TYPE,
                  ErrorCode::E_URL, ErrorCode::E_CRASH].freeze
  private_constant :CONFIG_CODES

  # The exception for a pathconfig_error as C fills it (0 and -1 mean "not
  # applicable" there, nil here).
  def self.error_from(struct, path: nil)
    code = struct[:code]
    detail = struct[:message].to_s.dup.force_encoding(Encoding::UTF_8).scrub
    line = struct[:line]
    position = {
      line: line.positive? ? line : nil,
      column: line.positive? && struct[:column].positive? ? struct[:column] : nil,
      rule_index: struct[:rule_index] >= 0 ? struct[:rule_index] : nil,
      pattern_index: struct[:pattern_index] >= 0 ? struct[:pattern_index] : nil
    }
    case code
    when ErrorCode::E_IO then FileError.new(detail, code, os_error: struct[:os_error], path: path, **position)
    when *CONFIG_CODES then ConfigError.new(detail, code, path: path, **position)
    when ErrorCode::E_DOWNLOAD then DownloadError.new(detail, code)
    when ErrorCode::E_CACHE then CacheError.new(detail, code)
    when ErrorCode::E_MISUSE, ErrorCode::E_FORKED then MisuseError.new(detail, code)
    when ErrorCode::E_CALLBACK then CallbackError.new(detail, code, rule_index: position[:rule_index])
    else InternalError.new(detail.empty? ? "libpathconfig reported an unknown failure" : detail, code)
    end
  end

  # The calling thread's last error as an exception.
  def self.last_error
    error_from(Native.last_error_struct)
  end
end
