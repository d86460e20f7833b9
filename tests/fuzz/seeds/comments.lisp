#| nested #| comment |# |# ; line
(a) #1=(#1# . #1#)