# frozen_string_literal: true

# The Ruby side of `make -C bindings/ruby bench` for one corpus size: the gem,
# read as a host reads an answer, beside a plain Ruby Regexp loop producing
# the merged Hash, and the raw ways of building an answer that the gem's
# design was measured against.
#
#   ruby peers.rb RULES_JSON URLS_TXT [--check-every K] [--options JSON]
#
# With the gem's C extension (Pathconfig::SPEEDUPS) every peer below runs.
# Under PATHCONFIG_PURE_RUBY=1 (the gem through ffi alone) only the gem's
# own three run, named rb_typed_ffi, rb_lookup_ffi and rb_raw_ffi. Run by
# `ruby --yjit` (Ruby's JIT, which Rails 7.2 and later turn on where Ruby
# has it), every name ends in _yjit.
#
# Speaks bench/run.py's worker protocol (bench/README.md): one JSON line
# {"ready": ...} when loaded, then for each "round SECONDS" line one JSON line
# of seconds per lookup for every peer, until "quit". The configuration is
# loaded as bench/c/peers.c loads it: profile turbo-ios, query strings on,
# result cache off; --options JSON loads it with those options instead (the
# cache still off), for a configuration of globs (Siesta), where the Regexp
# loop, which reads patterns, is left out of the check.
#
#   rb_typed          properties(url), then .context and .presentation (the headline)
#   rb_lookup         properties(url) alone: the frozen Hash of the answer
#   rb_raw            properties(url), then .get_str("context") (a raw getter)
#   rb_empty          the timing loop around a peer that does nothing: what
#                     every Ruby figure includes and the C worker's do not
#   rb_direct_typed   direct calls, no gem: resolve, typed_string of context
#                     and presentation, release (what the issue measured)
#   rb_hash_json      direct calls: resolve, JSON.parse(result_json, freeze: true),
#                     release: a Hash built per lookup, without the gem's answer cache
#   rb_hash_getters   direct calls: resolve, then count and, per key, key(i),
#                     type(i) and the getter of that type by key: the Hash built
#                     through the getters, as a by-index getter would build it
#                     with one call fewer per key
#   rb_autopointer    resolve wrapped in an FFI::AutoPointer (released by the GC)
#                     and the two typed reads: a naive wrapper
#   rb_regexp         a Ruby loop over Regexp (Onigmo), compiled once, on the
#                     string the profile matches (matched_string, worked out
#                     before any timing), merging the matched rules'
#                     properties into a new Hash
$LOAD_PATH.unshift File.expand_path("../lib", __dir__)
require "json"
require "pathconfig"

rules_path, urls_path = ARGV[0], ARGV[1]
every = ARGV.include?("--check-every") ? Integer(ARGV[ARGV.index("--check-every") + 1]) : 1
text = File.binread(rules_path)
urls = File.readlines(urls_path, chomp: true).reject { |u| u.strip.empty? }.map(&:freeze)
N = Pathconfig::Native
options_at = ARGV.index("--options")
OPTIONS = (options_at ? JSON.parse(ARGV[options_at + 1], symbolize_names: true) : { profile: "turbo-ios", match_query_strings: true })
          .merge(result_cache_size: 0).freeze

def clock
  Process.clock_gettime(Process::CLOCK_MONOTONIC)
end

t0 = clock
config = Pathconfig::PathConfiguration.from_json(text, **OPTIONS)
load_ms = (clock - t0) * 1e3
address = config.instance_variable_get(:@address)
subjects = urls.map { |u| config.matched_string(u) }
document = JSON.parse(text)
refused = 0
rules = document["rules"].map do |rule|
  regexes = rule.fetch("patterns", []).filter_map do |p|
    Regexp.new(p)
  rescue RegexpError
    refused += 1
    nil
  end
  [regexes, rule["properties"] || {}]
end
CONTEXT = Pathconfig::TYPED_KEYS["context"].index
PRESENTATION = Pathconfig::TYPED_KEYS["presentation"].index

regexp_loop = lambda do |s|
  merged = {}
  rules.each do |regexes, props|
    merged.update(props) if regexes.any? { |r| r.match?(s) }
  end
  merged
end

build_by_getters = lambda do |res|
  hash = {}
  out = FFI::MemoryPointer.new(:int64)
  len = FFI::MemoryPointer.new(:size_t)
  N.pathconfig_result_count(res).times do |i|
    key = N.pathconfig_result_key(res, i).force_encoding(Encoding::UTF_8)
    hash[key] = case N.pathconfig_result_type(res, i)
                when 1 then nil
                when 2 then N.pathconfig_result_get_bool(res, key, out) && out.read_int == 1
                when 3 then N.pathconfig_result_get_int64(res, key, out) && out.read_int64
                when 4 then N.pathconfig_result_get_double(res, key, out) && out.read_double
                when 5
                  N.pathconfig_result_get_string(res, key, out, len)
                  out.read_pointer.read_bytes(len.read(:size_t)).force_encoding(Encoding::UTF_8)
                else
                  N.pathconfig_result_get_json(res, key, out)
                  JSON.parse(out.read_pointer.read_string)
                end
  end
  hash
end

# The direct-call peers call the library as a program with its own ffi
# declarations would: their resolve gives the result's address (the gem's
# Native, with its C extension, hands each result over as an owned object).
module Direct
  extend FFI::Library
  ffi_lib Pathconfig::Native::LIBRARY_PATH
  attach_function :pathconfig_resolve, %i[uintptr_t string string pointer], :uintptr_t
end

releaser = N.method(:pathconfig_result_release)
hash_json = lambda do |u|
  res = Direct.pathconfig_resolve(address, u, nil, nil)
  h = JSON.parse(N.pathconfig_result_json(res), freeze: true)
  N.pathconfig_result_release(res)
  h
end

# Each peer is the Ruby a host writes for one URL (u; s is the string the
# profile matches, for the Regexp loop), pasted into a `while` loop over the
# URLs (runner below), as the C worker calls its peers in a `for` loop: a
# block or lambda call per URL would add about 0.1 µs, more than C's whole
# lookup at ten rules, to every Ruby figure and to none of C's. rb_empty
# times that loop alone.
GEM_PEERS = {
  "rb_typed" => "props = config.properties(u); props.context; props.presentation",
  "rb_lookup" => "config.properties(u)",
  "rb_raw" => 'config.properties(u).get_str("context")'
}.freeze
RAW_PEERS = {
  "rb_empty" => "nil",
  "rb_direct_typed" => <<~RUBY,
    res = Direct.pathconfig_resolve(address, u, nil, nil)
    N.pathconfig_result_typed_string(res, CONTEXT)
    N.pathconfig_result_typed_string(res, PRESENTATION)
    N.pathconfig_result_release(res)
  RUBY
  "rb_hash_json" => "hash_json.call(u)",
  "rb_hash_getters" => <<~RUBY,
    res = Direct.pathconfig_resolve(address, u, nil, nil)
    build_by_getters.call(res)
    N.pathconfig_result_release(res)
  RUBY
  "rb_autopointer" => <<~RUBY,
    res = FFI::AutoPointer.new(FFI::Pointer.new(Direct.pathconfig_resolve(address, u, nil, nil)), ->(p) { releaser.call(p.address) })
    N.pathconfig_result_typed_string(res.address, CONTEXT)
    N.pathconfig_result_typed_string(res.address, PRESENTATION)
  RUBY
  "rb_regexp" => "regexp_loop.call(s)"
}.freeze
# PATHCONFIG_BENCH_PEERS=a,b keeps only those (make bench's rows).
YJIT = defined?(RubyVM::YJIT) && RubyVM::YJIT.enabled? ? "_yjit" : ""
PEERS = if Pathconfig::SPEEDUPS
          GEM_PEERS.merge(RAW_PEERS)
        else
          GEM_PEERS.transform_keys { |name| "#{name}_ffi" }
        end.transform_keys { |name| "#{name}#{YJIT}" }
           .then { |all| ENV["PATHCONFIG_BENCH_PEERS"] ? all.slice(*ENV["PATHCONFIG_BENCH_PEERS"].split(",")) : all }.freeze

# A peer's timing loop: runner.call(i, n) runs its body on n URLs from index
# i on (cycling) and gives the index after them.
count = urls.size
RUNNERS = PEERS.transform_values do |body|
  eval(<<~RUBY, binding, __FILE__, __LINE__ + 1) # rubocop:disable Security/Eval
    lambda do |i, n|
      while n > 0
        u = urls[i]
        #{'s = subjects[i]' if body.include?('(s)')}
        #{body}
        i += 1
        i = 0 if i == count
        n -= 1
      end
      i
    end
  RUBY
end.freeze

# The check: the gem's Hash, the getters' Hash and the JSON Hash agree; the
# Regexp loop's Hash against the gem's (Onigmo is not the apps' engine: the
# differences are counted, not fixed).
checked = 0
binding_mismatch = 0
regexp_mismatch = 0
first_difference = nil
urls.each_with_index do |u, i|
  next unless (i % every).zero?

  checked += 1
  props = config.properties(u)
  res = Direct.pathconfig_resolve(address, u, nil, nil)
  getters = build_by_getters.call(res)
  N.pathconfig_result_release(res)
  binding_mismatch += 1 unless props == getters && props == hash_json.call(u)
  mine = regexp_loop.call(subjects[i])
  next if options_at || mine == props

  regexp_mismatch += 1
  first_difference ||= "#{u}: libpathconfig #{props.json}, Ruby Regexp loop #{JSON.generate(mine)}"
end

$stdout.sync = true
puts JSON.generate("ready" => "ruby", "rules" => document["rules"].size, "peers" => PEERS.keys,
                   "build_ms" => { "rb_load" => load_ms }, "refused" => { "rb_regexp" => refused },
                   "check" => { "urls" => checked, "binding" => binding_mismatch, "rb_regexp" => regexp_mismatch,
                                "first_difference" => first_difference },
                   "ruby" => RUBY_DESCRIPTION, "ffi" => FFI::VERSION, "speedups" => Pathconfig::SPEEDUPS)

positions = Hash.new(0)
round = 0
while (line = $stdin.gets)
  break unless line.start_with?("round ")

  budget = Float(line.split[1])
  names = PEERS.keys.rotate(round)
  seconds = {}
  names.each do |name|
    runner = RUNNERS[name]
    i = positions[name]
    n = 0
    start = clock
    deadline = start + budget
    loop do
      i = runner.call(i, 64)
      n += 64
      break if clock >= deadline
    end
    seconds[name] = (clock - start) / n
    positions[name] = i
    GC.start if name.start_with?("rb_autopointer") # its releases are the GC's: counted where they fall
  end
  puts JSON.generate("round" => seconds)
  round += 1
end
