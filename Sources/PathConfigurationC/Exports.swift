// C exports live here.
