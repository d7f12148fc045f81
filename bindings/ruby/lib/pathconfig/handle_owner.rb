# frozen_string_literal: true

module Pathconfig
  # What PathConfiguration and Loader, whose objects each own a library
  # handle, do instead of copying. Object#dup and #clone copy the instance
  # variables and the finalizer, so a copy would release the same handle,
  # and the first of the two the garbage collector took would free it under
  # the other (a crash at its next call). #dup, #clone and Marshal.dump raise
  # TypeError, as Ruby's Singleton does: share the object instead (any
  # thread may use it), and in another process load the file again.
  module HandleOwner
    def dup
      raise TypeError, "can't dup #{self.class}: it owns a library handle"
    end

    def clone(*)
      raise TypeError, "can't clone #{self.class}: it owns a library handle"
    end

    def _dump(_level)
      raise TypeError, "can't dump #{self.class}: it owns a library handle"
    end
  end
end
