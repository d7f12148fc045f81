# frozen_string_literal: true

require "json"
require "pathconfig"

module Pathconfig
  # What the test helpers (Pathconfig::Minitest, Pathconfig::RSpec) share:
  # a configuration given as an object, a file or JSON text (a controller's
  # rendered body), loaded as each app reads it, and a comparison of the
  # expected properties with what each app reads, whose failure shows the
  # matching rules (explain).
  #
  # Apps are the library's profiles (Pathconfig::PROFILES), optionally with a
  # release: "hotwire-ios@1.2.2", "hotwire-android@main"; the library checks
  # the name, and an unknown one fails with the library's own message.
  module Check
    module_function

    # The configuration of `source` as each app reads it: { app => PathConfiguration }.
    # source:: a PathConfiguration (it answers as its own profile only), a
    #          Pathname or String path of a file, JSON text (a String starting
    #          with "{", as a controller renders it) or a Hash.
    # apps:: profile names; nil for the configuration's own profile (a
    #        PathConfiguration's) or the library's default.
    def configurations(source, apps)
      apps = Array(apps).map(&:to_s)
      if source.is_a?(PathConfiguration)
        own = source.profile
        unknown = apps - [own]
        unless unknown.empty?
          raise ArgumentError, "a loaded PathConfiguration answers as its own profile #{own.inspect} only, " \
                               "not #{unknown.join(', ')}: pass its file or JSON text to check other apps"
        end
        return { own => source }
      end
      apps = [PROFILES.first] if apps.empty?
      apps.to_h { |app| [app, load(source, app)] }
    end

    def load(source, app)
      case source
      when Hash then PathConfiguration.from_json(JSONText.generate(source), profile: app)
      when String
        if source.lstrip.start_with?("{")
          PathConfiguration.from_json(source, profile: app)
        else
          PathConfiguration.from_file(source, profile: app)
        end
      else
        return PathConfiguration.from_file(source, profile: app) if source.respond_to?(:to_path)

        raise TypeError, "a path configuration is a PathConfiguration, a file path, JSON text or a Hash, " \
                         "not #{source.class}"
      end
    end

    # What an app reads for `key`: the typed value for a typed key (defaults
    # applied), else the raw value; [:crash, error] where the app crashes
    # reading it, [:absent] for a raw key that is not there.
    def read(props, key)
      name = key.to_s
      if TYPED_KEYS.key?(name)
        props.typed(name)
      elsif props.key?(name)
        props[name]
      else
        Absent
      end
    rescue ConfigError => e
      raise unless e.code == ErrorCode::E_CRASH

      Crash.new(e)
    end

    # The app crashes where it reads the key (E_CRASH).
    Crash = Struct.new(:error) do
      def inspect
        "a crash of the app (#{error.message})"
      end
    end

    # A raw key that is not in the properties.
    Absent = Object.new
    def Absent.inspect
      "absent"
    end

    # Whether `actual` is `expected` with the same JSON types (1 is not 1.0
    # nor "1", true is not "true"); a Regexp, Range, Class or Proc expected
    # is matched with ===.
    def same?(expected, actual)
      case expected
      when Regexp, Range, Class, Proc then expected === actual # rubocop:disable Style/CaseEquality
      when Hash
        actual.is_a?(Hash) && expected.size == actual.size &&
          expected.all? { |k, v| actual.key?(k.to_s) && same?(v, actual[k.to_s]) }
      when Array
        actual.is_a?(Array) && expected.size == actual.size && expected.zip(actual).all? { |e, a| same?(e, a) }
      when Integer then actual.is_a?(Integer) && actual == expected
      when Float then actual.is_a?(Float) && actual == expected
      when Symbol then actual == expected.to_s
      else actual.instance_of?(expected.class) && actual == expected
      end
    end

    def describe(value)
      case value
      when Crash then value.inspect
      when Absent then "absent"
      else "#{value.inspect} (#{json_type(value)})"
      end
    end

    def json_type(value)
      case value
      when String then "string"
      when Integer then "integer"
      when Float then "number"
      when true, false then "boolean"
      when nil then "null"
      when Array then "array"
      when Hash then "object"
      else value.class.name
      end
    end

    # What each app reads for `url`, as a Hash with Symbol keys: the raw
    # properties, with every typed key as the app reads it (defaults applied;
    # a key the app crashes on is left out). What an RSpec matcher given to
    # `resolve(...).to(...)` receives.
    def view(props)
      view = props.to_h.transform_keys(&:to_sym)
      TYPED_KEYS.each_key do |name|
        value = read(props, name)
        view[name.to_sym] = value unless value.is_a?(Crash)
      end
      view
    end

    # The failures of `expected` (a Hash of key => value) for `url` under
    # each app: [] when every app reads every expected value.
    def failures(source, url, expected, apps: nil, method: nil)
      raise TypeError, "expected properties must be a Hash, not #{expected.class}" unless expected.is_a?(Hash)

      configurations(source, apps).filter_map do |app, config|
        props = config.properties(url, method: method)
        wrong = expected.filter_map do |key, value|
          actual = read(props, key)
          next if same?(value, actual)

          "#{key}: expected #{describe(value)}, got #{describe(actual)}"
        end
        report(config, app, url, method, wrong) unless wrong.empty?
      end
    end

    # The failure text for one app: what differs, the properties, the
    # matching rules (explain) and the string the patterns saw.
    def report(config, app, url, method, wrong)
      explained = config.explain(url, method: method)
      rules = explained["rules"].map do |rule|
        what = if rule.key?("pattern") then "pattern #{rule['pattern'].inspect}"
               elsif rule.key?("glob") then "glob #{rule['glob'].inspect}"
               else "a predicate"
               end
        extra = [rule["description"] && "(#{rule['description']})", rule["builtin"] && "(built in)",
                 rule["from_code"] && "(from code)"].compact.join(" ")
        "    rule #{rule['index']}: #{what}#{" #{extra}" unless extra.empty?}"
      end
      rules = ["    (none)"] if rules.empty?
      ["#{method ? "#{method} " : ''}#{url} as #{app} reads it:",
       *wrong.map { |w| "  #{w}" },
       "  properties: #{JSONText.generate(explained['properties'])}",
       "  matched string: #{explained['matched_string'].inspect}",
       "  matching rules:", *rules].join("\n")
    end

    # The errors and, with warnings: true, the warnings of `source` as each
    # app loads it: [] when every app loads it cleanly.
    def problems(source, apps: nil, warnings: false)
      apps = Array(apps).map(&:to_s)
      apps = [PROFILES.first] if apps.empty?
      apps.flat_map do |app|
        config = load(source, app)
        warnings ? config.warnings.map { |w| "#{app}: warning: #{w.kind}: #{w}" } : []
      rescue ConfigError => e
        ["#{app}: #{e.message}"]
      end
    end
  end
end
