# frozen_string_literal: true

require "digest"
require "json"
require "pathconfig"

module Pathconfig
  module Rack
    # A Rack application (or middleware) that serves path configurations, one
    # file per platform and version, each checked once, at boot, by the
    # library as the apps that fetch it read it:
    #
    #   # config.ru, or mounted in config/routes.rb
    #   run Pathconfig::Rack::Server.new(
    #     "/configurations/ios_v1.json"     => { file: "config/path_configurations/ios_v1.json",
    #                                            apps: %w[hotwire-ios turbo-ios] },
    #     "/configurations/android_v1.json" => { file: "config/path_configurations/android_v1.json",
    #                                            apps: %w[hotwire-android@1.2.2] }
    #   )
    #
    # Each entry's source is file: (a path), json: (the text) or data: (a Hash,
    # written as JSON once); a bare String or Pathname is a file. apps: are
    # the profiles it is checked under (the library's default when absent).
    # A configuration any of them rejects raises the library's ConfigError at
    # boot, with the file, line and column.
    #
    # GET and HEAD of a mapped path answer 200 with the bytes, Content-Type
    # application/json and a strong ETag (the SHA-256 of the bytes); a request
    # whose If-None-Match names that ETag (or "*") answers 304 Not Modified,
    # without a body. Other methods answer 405. A path the mapping lacks goes
    # to `app:` when given (as middleware), else answers 404.
    class Server
      Entry = Struct.new(:body, :etag, :apps)

      attr_reader :entries

      # mapping: { path => source }; written without braces, its String keys
      # arrive as keywords, which are taken too.
      def initialize(mapping = {}, app: nil, cache_control: "no-cache", **paths)
        raise TypeError, "mapping must be a Hash of path => source" unless mapping.is_a?(Hash)

        mapping = mapping.merge(paths)

        @app = app
        @cache_control = cache_control
        @entries = mapping.to_h { |path, spec| [path.to_s, entry(path.to_s, spec)] }.freeze
      end

      def call(env)
        entry = @entries[env["PATH_INFO"]]
        return @app.call(env) if entry.nil? && @app
        return [404, { "content-type" => "text/plain" }, ["Not Found\n"]] if entry.nil?

        method = env["REQUEST_METHOD"]
        unless %w[GET HEAD].include?(method)
          return [405, { "allow" => "GET, HEAD", "content-type" => "text/plain" }, ["Method Not Allowed\n"]]
        end

        headers = { "etag" => entry.etag, "cache-control" => @cache_control }
        return [304, headers, []] if not_modified?(env["HTTP_IF_NONE_MATCH"], entry.etag)

        headers["content-type"] = "application/json"
        headers["content-length"] = entry.body.bytesize.to_s
        [200, headers, method == "HEAD" ? [] : [entry.body]]
      end

      private

      # RFC 9110, 13.1.2: If-None-Match compares weakly; "*" matches any.
      def not_modified?(header, etag)
        return false if header.nil?

        header.split(",").map(&:strip).any? { |tag| tag == "*" || tag.delete_prefix("W/") == etag }
      end

      def entry(path, spec)
        spec = { file: spec } if spec.is_a?(String) || spec.respond_to?(:to_path)
        raise TypeError, "#{path}: a source is a file path or a Hash with file:, json: or data:" unless spec.is_a?(Hash)

        spec = spec.transform_keys(&:to_sym)
        name, body = source(path, spec)
        apps = Array(spec[:apps]).map(&:to_s)
        (apps.empty? ? [nil] : apps).each do |app|
          PathConfiguration.from_json(body, **(app ? { profile: app } : {})).close
        rescue ConfigError => e
          e.path = name
          raise e
        end
        body = body.dup.force_encoding(Encoding::UTF_8).freeze
        Entry.new(body, %("#{Digest::SHA256.hexdigest(body)}"), apps.freeze).freeze
      end

      def source(path, spec)
        if spec[:file]
          file = spec[:file].respond_to?(:to_path) ? spec[:file].to_path : spec[:file].to_s
          [file, File.binread(file)]
        elsif spec[:json]
          ["#{path} (json:)", spec[:json].to_s]
        elsif spec[:data]
          ["#{path} (data:)", JSONText.generate(spec[:data])]
        else
          raise ArgumentError, "#{path}: give file:, json: or data:"
        end
      end
    end
  end
end
