# frozen_string_literal: true

require "json"

module Pathconfig
  # What a Loader reads: a configuration file, read each time the chain runs
  # ({"file": PATH}).
  FileSource = Struct.new(:path) do
    def to_h
      { "file" => Text.arg(path.respond_to?(:to_path) ? path.to_path : path, "FileSource path") }
    end
  end

  # A server copy ({"server": URL, "headers": {...}}): an absolute http(s)
  # URL, downloaded by load and refresh, cached in the loader's cache_dir;
  # headers are sent with each request, in the order given.
  ServerSource = Struct.new(:url, :headers) do
    def to_h
      spec = { "server" => Text.arg(url, "ServerSource url") }
      if headers && !headers.empty?
        raise TypeError, "ServerSource headers must be a Hash of String to String" unless headers.is_a?(Hash)

        spec["headers"] = headers.to_h { |k, v| [Text.arg(k, "header name"), Text.arg(v, "header #{k}")] }
      end
      spec
    end
  end

  # A configuration given as JSON text ({"data": TEXT, "name": NAME}); name
  # (default "data") names it in events.
  DataSource = Struct.new(:text, :name) do
    def to_h
      spec = { "data" => Text.utf8(text, "DataSource text") }
      spec["name"] = Text.arg(name, "DataSource name") unless name.nil?
      spec
    end
  end

  # The loader's sources and options as the C sources_json and options_json
  # (include/pathconfig/loader.h).
  module Sources
    module_function

    def json(sources)
      raise TypeError, "sources must be an Array of FileSource, ServerSource, DataSource or Hash, not #{sources.class}" unless sources.is_a?(Array)

      specs = sources.each_with_index.map do |source, i|
        case source
        when FileSource, ServerSource, DataSource then source.to_h
        when Hash then source.transform_keys(&:to_s)
        else raise TypeError, "source #{i} must be a FileSource, ServerSource, DataSource or Hash, not #{source.class}"
        end
      end
      JSONText.generate(specs, ascii_only: true)
    end

    # Seconds as the library's whole milliseconds (rounded up).
    def milliseconds(value, what)
      return nil if value.nil?
      raise TypeError, "#{what} must be a number of seconds or nil, not #{value.class}" unless value.is_a?(Numeric)
      raise ArgumentError, "#{what} must be a finite number of seconds" unless value.to_f.finite?

      (value * 1000).ceil
    end

    def path_text(value, what)
      value = value.to_path if value.respond_to?(:to_path)
      Text.arg(value, what)
    end

    def options_json(cache_dir:, timeout:, max_body_bytes:, refresh_interval:, user_agent:, ca_file:,
                     follow_redirects_to_other_hosts:, load_options:)
      options = Options.load_options(load_options)
      options[:cache_dir] = path_text(cache_dir, "cache_dir") unless cache_dir.nil?
      ms = milliseconds(timeout, "timeout")
      options[:timeout_ms] = ms if ms
      unless max_body_bytes.nil?
        raise TypeError, "max_body_bytes must be an Integer or nil" unless max_body_bytes.is_a?(Integer)

        options[:max_body_bytes] = max_body_bytes
      end
      ms = milliseconds(refresh_interval, "refresh_interval")
      options[:refresh_interval_ms] = ms if ms
      options[:user_agent] = Text.arg(user_agent, "user_agent") unless user_agent.nil?
      options[:ca_file] = path_text(ca_file, "ca_file") unless ca_file.nil?
      unless follow_redirects_to_other_hosts.nil?
        raise TypeError, "follow_redirects_to_other_hosts must be true, false or nil" unless [true, false].include?(follow_redirects_to_other_hosts)

        options[:follow_redirects_to_other_hosts] = follow_redirects_to_other_hosts
      end
      Options.json(options)
    end
  end
end
