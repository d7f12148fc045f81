# frozen_string_literal: true

module Pathconfig
  # One step of a loader's chain: a copy of the C event (pathconfig_loader_event),
  # made while the library's callback ran, so it stays valid afterwards.
  #
  # kind:: what happened: :applied, :superseded, :not_modified, :failed,
  #        :warning (PATHCONFIG_EVENT_*; a kind newer than this gem is its number).
  # source_kind:: :data, :file, :cache (a server source's cached copy) or
  #               :server (its download).
  # source_index:: the 0-based index of the source.
  # location:: the data's name, the file's path, the cache file's path, or the URL.
  # url:: the server URL for :cache and :server steps, else nil.
  # byte_count:: bytes read or downloaded, nil when no body was.
  # http_status:: the status of a failed download when one arrived, else nil.
  # reason:: a DownloadReason or CacheReason number when error is a
  #          DownloadError or CacheError, else nil.
  # error:: why, for :failed and :warning: a ConfigError (with line, column,
  #         rule_index, pattern_index), DownloadError or CacheError; else nil.
  # description:: one line for logs (also to_s).
  # configuration:: the configuration the step produced (:applied,
  #                 :superseded, :not_modified when one is known) as a
  #                 PathConfiguration of its own reference, else nil.
  LoaderEvent = Struct.new(:kind, :source_kind, :source_index, :location, :url, :byte_count, :http_status,
                           :reason, :error, :description, :configuration, keyword_init: true) do
    def to_s
      description
    end

    %i[applied superseded not_modified failed warning].each do |k|
      define_method(:"#{k}?") { kind == k }
    end
  end

  class LoaderEvent
    # PATHCONFIG_EVENT_* and PATHCONFIG_SOURCE_* of the header.
    KINDS = { 1 => :applied, 2 => :superseded, 3 => :not_modified, 4 => :failed, 5 => :warning }.freeze
    SOURCE_KINDS = { 0 => :data, 1 => :file, 2 => :cache, 3 => :server }.freeze

    # A copy of the C event at `pointer` (borrowed for the callback call).
    def self.from_c(pointer)
      ev = Native::LoaderEventStruct.new(pointer)
      location = Native.borrowed_text(ev[:location]) || ""
      url = Native.borrowed_text(ev[:url])
      error = nil
      reason = nil
      unless ev[:error].null?
        error = Pathconfig.error_from(Native::ErrorStruct.new(ev[:error]))
        case error
        when DownloadError
          reason = ev[:reason].zero? ? nil : ev[:reason]
          error.reason = reason
          error.http_status = ev[:http_status].zero? ? nil : ev[:http_status]
          error.url = url
        when CacheError
          reason = ev[:reason].zero? ? nil : ev[:reason]
          error.reason = reason
          error.url = url
          error.path = location
        end
      end
      configuration = nil
      unless ev[:configuration].null?
        configuration = PathConfiguration.wrap(Native.pathconfig_retain(ev[:configuration].address))
      end
      new(kind: KINDS.fetch(ev[:kind], ev[:kind]), source_kind: SOURCE_KINDS.fetch(ev[:source_kind], ev[:source_kind]),
          source_index: ev[:source_index], location: location.freeze, url: url&.freeze,
          byte_count: ev[:byte_count].negative? ? nil : ev[:byte_count],
          http_status: ev[:http_status].zero? ? nil : ev[:http_status], reason: reason, error: error,
          description: (Native.borrowed_text(ev[:description]) || "").freeze, configuration: configuration)
    end
  end
end
