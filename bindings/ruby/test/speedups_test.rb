# frozen_string_literal: true

require_relative "test_helper"

# The C extension (pathconfig/speedups, ext/pathconfig/speedups.c) against
# the ffi path: the same answers, errors and shared Properties for every
# input, the same typed values, and the mode the suite was asked to run in,
# as bindings/python/tests/test_speedups.py checks pathconfig._speedups.
#
# `make test` builds the extension in place and runs every suite with it
# (PATHCONFIG_EXPECT_SPEEDUPS=1), then the suites that look URLs up once more
# without it (PATHCONFIG_PURE_RUBY=1). These tests call both paths directly,
# so they need the extension built (`make -C bindings/ruby speedups`); in
# the pure mode they bind it themselves.
class SpeedupsTest < Minitest::Test
  include JSONAssertions
  include Conformance

  PURE = !["", "0"].include?(ENV.fetch("PATHCONFIG_PURE_RUBY", ""))
  EXTENSION = File.expand_path("../lib/pathconfig/speedups.#{RbConfig::CONFIG['DLEXT']}", __dir__)

  RULES = {
    "rules" => [
      { "patterns" => [".*"], "properties" => { "context" => "default" } },
      { "patterns" => ["/new$", "/edit$"], "properties" => { "context" => "modal" } },
      { "patterns" => ["^/posts/[0-9]+$"], "properties" => { "presentation" => "push", "n" => 1.50 } },
      { "patterns" => ["caf\u00e9"], "properties" => { "accent" => true, "title" => "Caf\u00e9" } },
      { "patterns" => ["/admin"], "methods" => ["POST"], "properties" => { "admin" => { "a" => [1, 2] } } },
      { "patterns" => ["/flag"], "properties" => { "pull_to_refresh_enabled" => "true" } },
      { "patterns" => ["(a+)+$"], "properties" => { "nested" => nil } }
    ]
  }.freeze

  # The extension, bound to the library ffi loaded (in the pure mode the gem
  # does not load or bind it itself).
  def fast
    begin
      require EXTENSION
    rescue LoadError => e
      flunk "#{EXTENSION} is not built (#{e.message}): run `make -C bindings/ruby speedups`"
    end
    Pathconfig::FastPath.bind
    Pathconfig::Speedups
  end

  def test_the_mode_the_suite_was_asked_for
    fast # built, whatever the mode
    if PURE
      assert_equal false, Pathconfig::SPEEDUPS
    else
      assert_equal true, Pathconfig::SPEEDUPS
      assert_includes $LOADED_FEATURES, EXTENSION if ENV["PATHCONFIG_EXPECT_SPEEDUPS"]
    end
  end

  # [:ok, json, Hash, the object's id] or [:error, class, code, message] of one lookup.
  def outcome
    result = yield
    [:ok, result.json, result.to_h, result.object_id]
  rescue StandardError => e
    [:error, e.class, e.respond_to?(:code) ? e.code : nil, e.message]
  end

  # Whether the extension takes `text` as it is (the gem's checks would keep it unchanged).
  def as_is?(text)
    text.is_a?(String) && [Encoding::UTF_8, Encoding::US_ASCII].include?(text.encoding) &&
      text.valid_encoding? && !text.include?("\0")
  end

  # The lookup through the extension (falling back to the gem's checks and
  # the ffi path for what it leaves to them, as properties does), whether it
  # left the arguments to the gem, and the lookup through ffi alone.
  def both(config, url, method = nil)
    address = config.instance_variable_get(:@address)
    declined = false
    through_c = outcome do
      answer = fast.lookup(address, url, method)
      raise Pathconfig.last_error if answer == false

      if answer.nil?
        declined = true
        through_ffi_lookup(config, address, url, method)
      else
        answer
      end
    end
    [through_c, declined, outcome { through_ffi_lookup(config, address, url, method) }]
  end

  def through_ffi_lookup(config, address, url, method)
    url = Pathconfig::Text.arg(url, "url")
    method = Pathconfig::Text.arg(method, "method") unless method.nil?
    config.send(:look_up_ffi, address, url, method)
  end

  def conformance_cases
    cases = []
    [IOS, ANDROID].each do |data|
      refute_nil data, "the conformance files are missing (#{CONFORMANCE})"
      data["cases"].each do |c|
        next if c["kind"] == "settings"

        cases << [data["fixtures"][c["fixture"]], PROFILES.fetch(c["library"] || c["implementation"]),
                  (c["options"] || {})["matchQueryStrings"], c["input"]]
      end
    end
    cases
  end

  def test_every_conformance_case_answers_the_same_through_both_paths
    cases = conformance_cases
    assert_operator cases.size, :>, 50
    cases.each do |fixture, profile, queries, url|
      Pathconfig::PathConfiguration.from_json(JSON.generate(fixture), profile: profile, match_query_strings: queries) do |config|
        2.times do # a new answer, then a kept one
          through_c, declined, through_ffi = both(config, url)
          assert_equal through_ffi, through_c, [profile, url].inspect
          assert_equal :ok, through_c.first
          refute declined
        end
      end
    end
  end

  # URLs and methods of every kind the gem is given: ASCII paths and URLs,
  # text beyond ASCII, NULs, invalid UTF-8, binary Strings, UTF-16, Symbols,
  # nil, numbers, long ones; good, bad and odd methods.
  def random_inputs(seed, count)
    rng = Random.new(seed)
    pieces = ["/", "posts", "new", "edit", "admin", "caf\u00e9", "12", "?q=1", "#f", "a", "aaaa", "%2F", " ",
              "\0", "flag", "\u{1F600}", "https://example.com", "//x", "..", "\u212a"]
    methods = [nil, nil, nil, "GET", "POST", "post", "PATCH", "NOT A TOKEN", "", "G\0T", "P\xFFST".b, :POST, 7,
               "GET".encode("UTF-16LE"), "POST".b]
    Array.new(count) do
      url = Array.new(rng.rand(0..8)) { pieces.sample(random: rng) }.join
      roll = rng.rand
      url = if roll < 0.03 then url.b
            elsif roll < 0.05 then url.encode("UTF-16LE")
            elsif roll < 0.06 then "#{url}\xFF".b.force_encoding(Encoding::UTF_8)
            elsif roll < 0.07 then url.to_sym
            elsif roll < 0.08 then nil
            elsif roll < 0.09 then 42
            elsif roll < 0.11 then "/#{'x' * [4095, 4096, 70_000].sample(random: rng)}"
            elsif roll < 0.13 then url.dup.force_encoding(Encoding::US_ASCII)
            elsif roll < 0.15 then "#{url}/new"[1..] # a shared substring
            else url
            end
      [url, methods.sample(random: rng)]
    end
  end

  [0, nil].each do |cache|
    %w[turbo-ios hotwire-android].each do |profile|
      define_method("test_random_inputs_answer_and_fail_the_same_through_both_paths_#{profile}_cache_#{cache.inspect}") do
        Pathconfig::PathConfiguration.from_json(JSON.generate(RULES), profile: profile, result_cache_size: cache,
                                                                      max_url_bytes: 8192) do |config|
          kinds = Set.new
          random_inputs(profile.size, 3000).each do |url, method|
            through_c, declined, through_ffi = both(config, url, method)
            shown = [url.is_a?(String) && url.size > 100 ? url[0, 100] : url, method].inspect
            assert_equal through_ffi, through_c, shown
            assert_equal !(as_is?(url) && (method.nil? || as_is?(method))), declined, "declined: #{shown}"
            # The public method, in whichever mode the suite runs, answers the same.
            public_outcome = outcome { config.properties(url, method: method) }
            assert_equal through_ffi, public_outcome, shown
            kinds << (through_c.first == :ok ? :ok : through_c[1])
          end
          # Both kinds of answer were compared: results, the gem's errors and the library's.
          assert_operator kinds, :superset?, Set[:ok, TypeError, ArgumentError, Encoding::InvalidByteSequenceError,
                                                 Pathconfig::ConfigError]
        end
      end
    end
  end

  def test_lookup_answers_a_kept_id_with_its_properties_and_adopts_a_new_one
    speedups = fast
    Pathconfig::PathConfiguration.from_json(JSON.generate(RULES), result_cache_size: 0) do |config|
      address = config.instance_variable_get(:@address)
      first = speedups.lookup(address, "/q/new", nil)
      assert_instance_of Pathconfig::Properties, first
      assert_same first, Pathconfig::Properties.answers[first.answer_id]
      assert_equal({ "context" => "modal" }, first)
      assert_same first, speedups.lookup(address, "/r/edit", nil) # another URL, the same answer
      assert_same first, speedups.lookup(address, "/s/new", "GET")
      assert_same first, config.properties("/t/new")
      assert_equal false, speedups.lookup(address, "/q", "NOT A TOKEN")
      assert_equal Pathconfig::ErrorCode::E_ARGUMENT, Pathconfig.last_error.code
      [["/q".b, nil], ["/q\0", nil], ["/\xFF", nil], [:"/q", nil], [nil, nil], [7, nil], ["/q".encode("UTF-16LE"), nil],
       ["/q", 7], ["/q", :GET], ["/q", "G\0T"], ["/q", "GET".b]].each do |url, method|
        assert_nil speedups.lookup(address, url, method), [url, method].inspect
      end
    end
  end

  # With the extension, #properties is its C function; what it does not
  # take itself goes to the gem's Ruby method, with the same outcome.
  def test_properties_is_the_extensions_method_and_hands_the_rest_to_the_gem
    method = Pathconfig::PathConfiguration.instance_method(:properties)
    if PURE
      refute_nil method.source_location, "the Ruby method, through ffi alone"
      return
    end
    assert_nil method.source_location, "a C function"
    assert Pathconfig::PathConfiguration.private_method_defined?(:checked_properties)
    # The address it looks up in is in the configuration's own struct, which
    # only a configuration has.
    assert_raises(TypeError) { Pathconfig::Speedups.set_address(Object.new, 0) }
    Pathconfig::PathConfiguration.from_json(JSON.generate(RULES), result_cache_size: 0) do |config|
      modal = config.properties("/a/new")
      assert_same modal, config.properties("/b/new", method: "GET")
      assert_same modal, config.properties("/b/new", method: nil)
      assert_same modal, config.properties("/b/new".encode("UTF-16LE")) # converted by the gem
      assert_same modal, config.properties(:"/b/new", method: :GET)
      assert_equal({ "context" => "default", "admin" => { "a" => [1, 2] } }, config.properties("/admin", method: "POST"))
      assert_raises(ArgumentError) { config.properties }
      assert_raises(ArgumentError) { config.properties("/a", "GET") }
      assert_raises(ArgumentError) { config.properties("/a", methods: "GET") }
      assert_raises(ArgumentError) { config.properties("/a", method: "GET", x: 1) }
      assert_raises(ArgumentError) { config.properties("/a\0") }
      assert_raises(TypeError) { config.properties(nil) }
      assert_raises(Encoding::InvalidByteSequenceError) { config.properties("/\xFF") }
      error = assert_raises(Pathconfig::ConfigError) { config.properties("/q", method: "NOT A TOKEN") }
      assert_equal Pathconfig::ErrorCode::E_ARGUMENT, error.code
      # Rules with Ruby callbacks: the gem's method runs them.
      config.add_rule(patterns: ["/cb$"], configurer: ->(request, _props) { request.set_str("title", "from Ruby") })
      assert_equal "from Ruby", config.properties("/x/cb")["title"]
      config.add_rule(patterns: ["/boom$"], predicate: ->(_request) { raise IOError, "boom" })
      assert_raises(IOError) { config.properties("/x/boom") }
      config.close
      assert_raises(Pathconfig::ClosedError) { config.properties("/a/new") }
      assert_same modal, Pathconfig::Properties.answers[modal.answer_id] # still the kept answer
    end
  end

  # The extension's front holds the answers of every configuration: two
  # configurations in turn, one closed halfway, answer as each one does.
  def test_configurations_in_turn_answer_as_each_does
    other = { "rules" => [{ "patterns" => ["/new$"], "properties" => { "context" => "other" } }] }
    Pathconfig::PathConfiguration.from_json(JSON.generate(RULES), result_cache_size: 0) do |first|
      Pathconfig::PathConfiguration.from_json(JSON.generate(other)) do |second|
        40.times do |i|
          assert_equal "modal", first.properties("/#{i}/new").context unless i >= 20
          assert_equal "other", second.properties("/#{i}/new")["context"]
          assert_equal "default", first.properties("/#{i}")["context"] unless i >= 20
          assert_nil second.properties("/#{i}")["context"]
          next unless i == 19

          assert_equal "modal", first.properties("/a/new").context # the configuration looked up last
          first.close
          assert_raises(Pathconfig::ClosedError) { first.properties("/a/new") }
        end
        assert_raises(Pathconfig::ClosedError) { first.properties("/a/new") }
      end
    end
  end

  # A host running `ruby -w` (RSpec and Minitest with warnings on) sees no
  # warning from loading the gem, in either mode: the extension's accessors
  # take the attr_readers' place without redefining them.
  def test_loading_the_gem_warns_of_nothing
    require "open3"
    mode = { "PATHCONFIG_PURE_RUBY" => PURE ? "1" : "0" }
    out, status = Open3.capture2e(mode, RbConfig.ruby, "-w", "-I", File.expand_path("../lib", __dir__),
                                  "-e", 'require "pathconfig"; print Pathconfig::SPEEDUPS')
    assert status.success?, out
    assert_equal (!PURE).to_s, out
  end

  def test_typed_reads_are_the_same_through_both_paths
    speedups = fast
    documents = conformance_cases.map { |fixture, profile, queries, url| [JSON.generate(fixture), profile, queries, url] }
    documents << [JSON.generate(RULES), "hotwire-android", nil, "/flag"] # a bool read the app crashes on
    documents << ['{"rules": [{"patterns": [".*"], "properties": {"context": "modal"}}]}', "turbo-android", nil,
                  "/x"] # uri: a read the app crashes on
    documents << [JSON.generate(RULES), "hotwire-ios", nil, "/caf\u00e9"]
    crashes = 0
    documents.each do |text, profile, queries, url|
      Pathconfig::PathConfiguration.from_json(text, profile: profile, match_query_strings: queries) do |config|
        props = config.properties(url)
        address = props.instance_variable_get(:@_result)
        Pathconfig::TYPED_KEYS.each_value do |info|
          c, ffi = if info.kind == :bool
                     [speedups.typed_bool(address, info.index), Pathconfig::Properties.ffi_typed_bool(address, info.index)]
                   else
                     [speedups.typed_string(address, info.index), Pathconfig::Properties.ffi_typed_string(address, info.index)]
                   end
          ffi.nil? ? assert_nil(c, info.name) : assert_equal(ffi, c, [profile, url, info.name].inspect)
          assert_equal ffi.encoding, c.encoding if c.is_a?(String)
          assert c.frozen? if c.is_a?(String)
          failed = info.kind == :bool ? c.nil? : c == false
          next unless failed

          crashes += 1
          error = assert_raises(Pathconfig::ConfigError) { props.public_send(info.name) }
          assert_equal Pathconfig::ErrorCode::E_CRASH, error.code
          assert_raises(Pathconfig::ConfigError) { props.typed(info.name) } # every time
        end
      end
    end
    assert_operator crashes, :>=, 2
  end

  def test_accessors_read_what_typed_reads
    Pathconfig::PathConfiguration.from_json(JSON.generate(RULES), profile: "hotwire-ios") do |config|
      props = config.properties("/caf\u00e9/new")
      assert_equal "modal", props.context
      assert_equal "Caf\u00e9", props.title
      assert_equal Encoding::UTF_8, props.title.encoding
      assert_equal "default", props.presentation
      Pathconfig::Properties::ACCESSORS.each_key do |name|
        expected = props.typed(name)
        # assert_equal with nil expected is deprecated (an error from Minitest 6).
        expected.nil? ? assert_nil(props.public_send(name), name) : assert_equal(expected, props.public_send(name), name)
      end
      assert props.frozen?
    end
  end

  # With the extension the typed accessors are its C functions, which read
  # the values of the answer the last lookup gave from the extension's front
  # of the kept answers (speedups.c, struct slot). On any answer, the last
  # or an earlier one, after more answers than the front has slots and
  # after a compacting GC, they give what the library's typed reads give.
  def test_accessors_give_the_librarys_typed_values_on_every_answer
    method = Pathconfig::Properties.instance_method(:context)
    if PURE
      refute_nil method.source_location, "an attr_reader, through ffi alone"
      return
    end
    assert_nil method.source_location, "a C function"
    assert_nil Pathconfig::Properties.instance_method(:pull_to_refresh_enabled?).source_location
    # Eleven rules, each matching URLs that hold /bK/: 2,048 answers, twice
    # the front's 1,024 slots.
    rules = Array.new(11) do |k|
      { "patterns" => ["/b#{k}/"], "properties" => { "k#{k}" => k, "title" => "t#{k}",
                                                       "context" => k.even? ? "modal" : "default",
                                                       "pull_to_refresh_enabled" => (k % 3).zero? } }
    end
    urls = Array.new(2048) { |i| "/x/#{Array.new(11) { |k| "b#{k}/" if i[k] == 1 }.join}" }.shuffle(random: Random.new(7))
    expect = lambda do |props|
      address = props.instance_variable_get(:@_result)
      Pathconfig::Properties::ACCESSORS.each_key do |name|
        info = Pathconfig::TYPED_KEYS[name]
        want = if info.kind == :bool
                 Pathconfig::Properties.ffi_typed_bool(address, info.index)
               else
                 Pathconfig::Properties.ffi_typed_string(address, info.index)
               end
        got = props.public_send(name)
        want.nil? ? assert_nil(got, name) : assert_equal(want, got, [props.json, name].inspect)
        assert_equal want, props.public_send(:"#{name}?") if info.kind == :bool
      end
    end
    Pathconfig::PathConfiguration.from_json(JSON.generate("rules" => rules)) do |config|
      earlier = nil
      2.times do |pass|
        urls.each_with_index do |url, i|
          props = config.properties(url)
          expect.call(props) # the last answer
          expect.call(earlier) if earlier && (i % 7).zero? # an earlier one
          earlier = props
          GC.compact if pass == 1 && i == 1000 && GC.respond_to?(:compact)
        end
      end
      assert_equal "t10", config.properties("/b3/b10/").title
      assert_equal "default", config.properties("/b9/").context
      assert_equal true, config.properties("/b3/b9/").pull_to_refresh_enabled
    end
  end

  # The front holds its answers alive: one the gem's Hash no longer keeps
  # (dropped as the Hash drops its oldest), held by nothing else, is still
  # whole after a full and a compacting GC.
  def test_the_front_keeps_its_answers_alive
    speedups = fast
    Pathconfig::PathConfiguration.from_json(JSON.generate(RULES)) do |config|
      address = config.instance_variable_get(:@address)
      url = "/caf\u00e9/posts/7/new"
      first = speedups.lookup(address, url, nil)
      id = first.answer_id
      json = first.json
      assert_equal "modal", first.context # now in the front too
      first = nil # rubocop:disable Lint/UselessAssignment: the test's own reference goes
      Pathconfig::Properties.answers.delete(id)
      GC.start(full_mark: true, immediate_sweep: true)
      GC.compact if GC.respond_to?(:compact)
      again = speedups.lookup(address, url, nil)
      assert_equal [id, json], [again.answer_id, again.json]
      assert_equal ["modal", "Caf\u00e9"], [again.context, again.title]
      assert_equal({ "context" => "modal", "accent" => true, "title" => "Caf\u00e9" }, again.to_h)
    end
  end

  def test_threads_share_the_answers_through_the_extension
    Pathconfig::PathConfiguration.from_json(JSON.generate(RULES), result_cache_size: 0) do |config|
      urls = Array.new(300) { |i| (i % 3).zero? ? "/posts/#{i}" : "/#{i}/new" }
      expected = urls.to_h { |u| [u, config.properties(u).to_h] }
      failures = Queue.new
      threads = Array.new(8) do |t|
        Thread.new do
          rng = Random.new(t)
          3000.times do
            u = urls.sample(random: rng)
            props = config.properties(u)
            failures << u unless props == expected[u] && props.context == (u.end_with?("/new") ? "modal" : "default")
          end
        end
      end
      threads.each(&:join)
      assert_empty failures.size.times.map { failures.pop }
    end
  end

  # With the extension the raw getters are its C functions: a key read
  # before is answered from what the gem kept, any other call goes to the
  # gem's getter (checked_get_str, ...), with the same outcome. Each
  # getter, first and kept, by String, Symbol and UTF-16 key, against the
  # gem's getter on the same answer from another configuration.
  def test_raw_getters_answer_kept_keys_and_hand_the_rest_to_the_gem
    getters = Pathconfig::Properties::RAW_GETTERS
    if PURE
      getters.each { |get| refute_nil Pathconfig::Properties.instance_method(get).source_location, get }
      return
    end
    getters.each do |get|
      assert_nil Pathconfig::Properties.instance_method(get).source_location, "#{get}: a C function"
      assert Pathconfig::Properties.private_method_defined?(:"checked_#{get}"), get
    end
    other = Pathconfig::PathConfiguration.from_json(JSON.generate(RULES)).properties("/posts/1")
    Pathconfig::PathConfiguration.from_json(JSON.generate(RULES)) do |config|
      props = config.properties("/posts/1")
      refute_equal other.answer_id, props.answer_id
      keys = props.keys + %w[missing] + props.keys.map(&:to_sym) + props.keys.map { |k| k.encode("UTF-16LE") }
      want = getters.to_h do |get|
        [get, keys.map { |key| Pathconfig::Properties.instance_method(:"checked_#{get}").bind_call(other, key) }]
      end
      2.times do
        getters.each { |get| assert_equal want[get], keys.map { |key| props.public_send(get, key) }, get }
      end
      assert_equal ["push", "1.5", 1.5, nil], [props.get_str("presentation"), props.get_json("n"), props.get_float("n"), props.get_int("n")]
      getters.each do |get|
        assert_raises(ArgumentError) { props.public_send(get, "context\0") }
        assert_raises(TypeError) { props.public_send(get, 42) }
        assert_raises(ArgumentError) { props.public_send(get) }
      end
    end
    assert_raises(RuntimeError) { Pathconfig::Speedups.define_raw_getters(Pathconfig::Properties, getters.map { |g| [g, g] }) }
  end

  def test_bad_calls_to_the_extension_are_errors
    speedups = fast
    assert_raises(ArgumentError) { speedups.lookup(0, "/") }
    assert_raises(TypeError) { speedups.lookup("0", "/", nil) }
    assert_raises(TypeError) { speedups.typed_string(nil, 0) }
    assert_raises(TypeError) { speedups.bind([], {}, Pathconfig::Properties) }
    assert_raises(TypeError) { speedups.bind({}, [], Pathconfig::Properties) }
    error = assert_raises(ArgumentError) { speedups.bind({}, {}, Pathconfig::Properties) }
    assert_includes error.message, "pathconfig_resolve"
    addresses = Pathconfig::FastPath::FUNCTIONS.to_h { |name| [name, 0] }
    assert_raises(ArgumentError) { speedups.bind(addresses, {}, Pathconfig::Properties) }
    assert_raises(RuntimeError) { speedups.define_accessors(Pathconfig::Properties, []) } unless PURE # once only
    # Still bound as before: the failed calls changed nothing.
    Pathconfig::PathConfiguration.from_json(JSON.generate(RULES)) do |config|
      assert_equal "modal", config.properties("/a/new").context
    end
  end
end
