# frozen_string_literal: true

require_relative "test_helper"

# The cases of Tests/Fixtures/conformance/siesta.json about choosing and
# merging configuration, mapped onto rules as
# bindings/python/tests/test_siesta_conformance.py maps them: glob cases from
# the document and from code, regex cases, resource and predicate cases
# through a Ruby predicate; ordering cases with plain values as rules from
# code merged deep; the invalidate cases through a configurer reading a host
# variable. Under every backend the library offers.
class SiestaConformanceTest < Minitest::Test
  include JSONAssertions

  include Conformance
  HIT = { "hit" => true }.freeze
  DEFAULTS = { "expirationTime" => 30, "retryTime" => 1, "headers" => {} }.freeze
  PLAIN = %w[expirationTime retryTime headers].freeze

  def self.value_case?(c)
    !c.key?("steps") && c["entries"].all? do |e|
      (e["methods"].nil? || e["methods"].is_a?(Array)) && (e["sets"].keys - PLAIN).empty? &&
        e["sets"].values.none? { |v| v.is_a?(String) }
    end
  end

  def test_case_counts
    refute_nil SIESTA, "#{File.join(CONFORMANCE, 'siesta.json')} not found: set PATHCONFIG_CONFORMANCE"
    assert_equal 97, SIESTA["pattern_cases"].size
    assert_equal 17, SIESTA["ordering_cases"].count { |c| self.class.value_case?(c) }
    assert_equal 2, SIESTA["ordering_cases"].count { |c| c.key?("steps") }
  end

  def siesta(base_url, rules = [], **options)
    Pathconfig::PathConfiguration.from_json(JSON.generate("rules" => rules), profile: "siesta", base_url: base_url,
                                            **options)
  end

  def url_predicate(c)
    pattern = c["pattern"]
    return ->(request) { request.url == pattern } if c["pattern_kind"] == "resource"

    ->(request) { request.url.end_with?("foo") }
  end

  def service(base_url, backend)
    config = siesta(base_url, merge: "deep", backend: backend)
    config.add_rule(description: "Siesta defaults", properties: DEFAULTS, predicate: ->(_) { true })
    config
  end

  def add_entry(config, entry, **callables)
    kind = entry["pattern_kind"]
    methods = entry["methods"]
    properties = callables.empty? ? entry["sets"] : nil
    case kind
    when "global"
      config.add_rule(globs: ["**"], methods: methods, properties: properties, description: entry["description"], **callables)
    when "glob"
      config.add_rule(globs: [entry["pattern"]], methods: methods, properties: properties, **callables)
    else
      config.add_rule(methods: methods, properties: properties, predicate: url_predicate(entry), **callables)
    end
  end

  Pathconfig::BACKENDS.each do |backend|
    (SIESTA || {}).fetch("pattern_cases", []).each_with_index do |c, i|
      define_method("test_pattern_#{backend}_#{i}") do
        kind = c["pattern_kind"]
        configs = []
        case kind
        when "glob"
          configs << ["document", siesta(c["baseURL"], [{ "globs" => [c["pattern"]], "properties" => HIT }], backend: backend)]
          from_code = siesta(c["baseURL"], backend: backend)
          from_code.add_rule(globs: [c["pattern"]], properties: HIT)
          configs << ["add_rule", from_code]
        when "regex"
          regex = ((c["regex_options"] || []).include?("caseInsensitive") ? "(?i)" : "") + c["pattern"]
          configs << ["document", siesta(c["baseURL"], [{ "patterns" => [regex], "properties" => HIT }], backend: backend)]
        else
          config = siesta(c["baseURL"], backend: backend)
          config.add_rule(properties: HIT, predicate: url_predicate(c))
          configs << ["predicate", config]
        end
        configs.each do |how, config|
          props = config.properties(c["url"])
          explained = config.explain(c["url"])
          assert_equal c["matches"], props["hit"] == true, "#{how}: #{explained}"
          next unless c["matches"]

          assert_equal 1, explained["rules"].size
          rule = explained["rules"][0]
          assert rule.key?({ "glob" => "glob", "regex" => "pattern" }.fetch(kind, "predicate")), rule.inspect
          assert_equal how != "document", rule.fetch("from_code", false)
        ensure
          config.close
        end
      end
    end

    (SIESTA || {}).fetch("ordering_cases", []).each_with_index do |c, i|
      next unless value_case?(c)

      define_method("test_ordering_#{backend}_#{i}") do
        config = service(c["baseURL"], backend)
        c["entries"].each { |entry| add_entry(config, entry) }
        props = config.properties(c["url"], method: c["method"]).to_h
        c["expected"].each do |key, expected|
          case key
          when "request_headers_include"
            expected.each { |name, value| assert_equal value, props["headers"][name], props.inspect }
          when "loadIfNeeded_at_t+2s_loads"
            c["entries"].each do |entry|
              entry["sets"].each do |name, value|
                assert_json_equal value, props[name], name
                assert_equal expected, value < 2
              end
            end
          else
            assert_json_equal expected, props[key], key
          end
        end
      end
    end

    (SIESTA || {}).fetch("ordering_cases", []).each_with_index do |c, i|
      next unless c.key?("steps")

      define_method("test_invalidate_#{backend}_#{i}") do
        entry = c["entries"].fetch(0)
        key, value = entry["sets"].first
        host = {}
        configurer = lambda do |_request, props|
          if key == "headers"
            header = value.keys.first
            props["headers"][header] = host["value"] unless host["value"].nil?
          else
            props[key] = host["value"]
          end
        end
        config = service(c["baseURL"], backend)
        add_entry(config, entry, configurer: configurer)
        read = -> { config.properties(c["url"], method: c["method"]).to_h }
        if key == "headers"
          header, expected = c["expected"]["repeated_request_header"].first
          refute read.call["headers"].key?(header)
          host["value"] = expected
          refute read.call["headers"].key?(header), "memoised until invalidate"
          config.invalidate
          assert_equal expected, read.call["headers"][header]
        else
          c["steps"].each do |step|
            action = step["do"]
            if action.start_with?("set ")
              host["value"] = Integer(action.split("=")[1])
            elsif action == "read"
              assert_json_equal step["expect"][key], read.call[key], step["why"] || key
            elsif action == "invalidateConfiguration()"
              config.invalidate
            else
              flunk "unknown step #{action.inspect}"
            end
          end
          assert_json_equal c["expected"][key], read.call[key]
        end
      end
    end
  end
end
