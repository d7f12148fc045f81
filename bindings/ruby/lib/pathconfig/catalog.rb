# frozen_string_literal: true

module Pathconfig
  # What the library knows, asked once per process (include/pathconfig/catalog.h):
  # the profiles and their apps' release lines, the backends built in, the
  # typed keys with their kind, allowed values and default per profile.
  # Nothing here is written down in Ruby: a profile, release line, backend or
  # typed key the library adds appears here (and Properties gains its typed
  # accessor) without a change to this gem.

  # One typed key: name, kind (:string, :bool or :enum; a kind newer than this
  # gem is its number), the values an enum allows and the default, by profile.
  TypedKey = Struct.new(:name, :kind, :values, :defaults, :index, keyword_init: true)

  # One release line of a profile's app: its name as a profile ("hotwire-ios@1.2.0",
  # "hotwire-ios@main"), the profile, its tags (oldest first) and the upstream commit.
  Release = Struct.new(:name, :profile, :tags, :commit, keyword_init: true)

  module Catalog
    # PATHCONFIG_TYPED_*: what pathconfig_typed_key_kind returns.
    KINDS = { 1 => :string, 2 => :bool, 3 => :enum }.freeze

    module_function

    def deep_freeze(value)
      case value
      when Hash then value.each_value { |v| deep_freeze(v) }
      when Array then value.each { |v| deep_freeze(v) }
      end
      value.freeze
    end

    def text(value)
      Native.utf8(value)&.freeze
    end

    def typed_key(index, profiles)
      number = Native.pathconfig_typed_key_kind(index)
      kind = KINDS.fetch(number, number)
      values = {}
      defaults = {}
      profiles.each do |profile|
        count = Native.pathconfig_typed_key_value_count(index, profile)
        values[profile] = Array.new(count) { |j| text(Native.pathconfig_typed_key_value(index, profile, j)) }
        defaults[profile] = if kind == :bool
                              Native.pathconfig_typed_key_default_bool(index, profile) == 1
                            else
                              text(Native.pathconfig_typed_key_default_string(index, profile))
                            end
      end
      TypedKey.new(name: text(Native.pathconfig_typed_key_name(index)), kind: kind,
                   values: deep_freeze(values), defaults: deep_freeze(defaults), index: index).freeze
    end

    def releases(index, profile)
      Array.new(Native.pathconfig_profile_release_count(index)) do |j|
        Release.new(name: text(Native.pathconfig_profile_release_name(index, j)), profile: profile,
                    tags: deep_freeze(Native.utf8(Native.pathconfig_profile_release_tags(index, j)).split),
                    commit: text(Native.pathconfig_profile_release_commit(index, j))).freeze
      end.freeze
    end
  end

  # The profiles (profile: values), the default first.
  PROFILES = Catalog.deep_freeze(Array.new(Native.pathconfig_profile_count) { |i| Catalog.text(Native.pathconfig_profile_name(i)) })
  # The platform of each profile, "ios" or "android".
  PLATFORMS = Catalog.deep_freeze(PROFILES.each_with_index.to_h { |name, i| [name, Catalog.text(Native.pathconfig_profile_platform(i))] })
  release_lines = PROFILES.each_with_index.to_h { |name, i| [name, Catalog.releases(i, name)] }
  # By profile, the names of its app's release lines, oldest first, the main
  # branch last ("hotwire-ios@1.2.0", ..., "hotwire-ios@main"). Any tag of a
  # line (RELEASE_LINES[name].tags) names it too: "hotwire-ios@1.2.2".
  RELEASES = Catalog.deep_freeze(release_lines.transform_values { |lines| lines.map(&:name) })
  # Each release line by its name: profile, tags and commit.
  RELEASE_LINES = release_lines.values.flatten.to_h { |r| [r.name, r] }.freeze
  # By profile, the release line its bare name reads as (the app's latest stable release).
  DEFAULT_RELEASES = Catalog.deep_freeze(PROFILES.each_with_index.to_h { |name, i| [name, RELEASES[name][Native.pathconfig_profile_default_release(i)]] })
  # The regex backends built into the library (backend: values), the default first.
  BACKENDS = Catalog.deep_freeze(Array.new(Native.pathconfig_backend_count) { |i| Catalog.text(Native.pathconfig_backend_name(i)) })
  # The typed keys by name, in the library's order (their index is the
  # PATHCONFIG_KEY_* number the typed readers take).
  TYPED_KEYS = Array.new(Native.pathconfig_typed_key_count) { |i| Catalog.typed_key(i, PROFILES) }.to_h { |k| [k.name, k] }.freeze
  # The typed keys read as booleans, and those read as strings.
  BOOL_KEYS = TYPED_KEYS.select { |_, k| k.kind == :bool }.keys.freeze
  STRING_KEYS = (TYPED_KEYS.keys - BOOL_KEYS).freeze

  # The library's name of a warning kind, e.g. "duplicate-key"
  # (pathconfig_warning_kind_name); the number itself for a kind it does not name.
  def self.warning_kind_name(kind)
    Native.utf8(Native.pathconfig_warning_kind_name(kind)) || kind.to_s
  end
end
